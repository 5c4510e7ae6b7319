package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.serve.HBaseReminderStore;
import io.pushline.serve.Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The demo's push requests sent as an app backend sends them: {@code POST /v1/push} to {@code
 * pushline serve}'s server with an app key, each answered 202 once its line is committed to
 * push.requests. One call at a time, in the requests' order, so the topic holds them in time order
 * as a producer would have written them.
 */
final class DemoApi {
    static final String KEY = "demo-backend-key";

    private DemoApi() {}

    /**
     * Posts every request; returns those the API refused with a 400 (the demo's deliberately bad
     * lines), which the caller writes to Kafka directly to show the job's dead letters. Any other
     * answer stops the demo.
     */
    static List<String[]> send(LocalStack stack, List<String[]> requests) throws Exception {
        Properties kafka = new Properties();
        kafka.setProperty("bootstrap.servers", stack.kafkaBootstrap());
        String ns = stack.jobOptions().get(CommonOptions.HBASE_NAMESPACE.key());
        if (ns == null) {
            ns = CommonOptions.HBASE_NAMESPACE.defaultValue();
        }
        try (Connection tables =
                ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()))) {
            HBaseTables.ensure(tables, ns);
        }
        // the server's own connection: closing the server closes it
        Connection hbase =
                ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()));
        try (Server server =
                Server.builder()
                        .reminders(new HBaseReminderStore(hbase, ns))
                        .appKey(KEY)
                        .appRate(Integer.MAX_VALUE)
                        .kafkaWrites(kafka, hbase, ns)
                        .build()) {
            int port = server.start("127.0.0.1", 0);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI push = URI.create("http://127.0.0.1:" + port + "/v1/push");
            List<String[]> refused = new java.util.ArrayList<>();
            for (String[] r : requests) {
                HttpResponse<String> a =
                        http.send(
                                HttpRequest.newBuilder(push)
                                        .header("Authorization", "Bearer " + KEY)
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofString(r[1]))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                if (a.statusCode() == 400) {
                    refused.add(r);
                } else if (a.statusCode() != 202) {
                    throw new IllegalStateException(
                            "POST /v1/push of " + r[0] + ": " + a.statusCode() + " " + a.body());
                }
            }
            return refused;
        }
    }
}
