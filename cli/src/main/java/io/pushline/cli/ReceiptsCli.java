package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.common.UsageException;
import io.pushline.local.LocalStack;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;

/** Options of the commands that read the receipts tables: trace, sql, report. */
final class ReceiptsCli {
    private ReceiptsCli() {}

    /** {@code --key value} options over the local stack's, with the HBase quorum required. */
    static Configuration options(List<String> given) throws Exception {
        List<String> all = new ArrayList<>(RunCommand.localEnvDefaults(LocalStack.defaultDir()));
        all.addAll(given);
        Configuration options =
                OptionsParser.parse(all.toArray(new String[0]), CommonOptions.all());
        if (options.get(CommonOptions.HBASE_ZK_QUORUM) == null) {
            throw new UsageException(
                    "no receipts tables: start the stack with ./pushline local up (or run ./pushline"
                            + " demo), or give --hbase.zookeeper.quorum");
        }
        return options;
    }
}
