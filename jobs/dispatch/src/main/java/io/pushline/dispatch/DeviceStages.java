package io.pushline.dispatch;

import io.pushline.dispatch.registry.RegistryOperator;
import io.pushline.dispatch.registry.UidIndexOperator;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * From a target to devices: the device registry (keyed by deviceId: binds, switches, requests to
 * devices) and the uid index (keyed by uid: which devices a uid has, fed by the registry's changes;
 * requests and campaign ids to uids).
 */
final class DeviceStages {
    private DeviceStages() {}

    static SingleOutputStreamOperator<DevicePush> registry(
            DataStream<RegistryInput> devices, int maxParallelism) {
        return devices.keyBy(k -> k.deviceId)
                .transform(
                        "Device registry",
                        TypeInformation.of(DevicePush.class),
                        new RegistryOperator())
                .uid("device-registry")
                .setMaxParallelism(maxParallelism);
    }

    static SingleOutputStreamOperator<DevicePush> uidIndex(
            DataStream<UidKeyed> byUid, int maxParallelism) {
        return byUid.keyBy(k -> k.uid)
                .transform(
                        "Uid index", TypeInformation.of(DevicePush.class), new UidIndexOperator())
                .uid("uid-index")
                .setMaxParallelism(maxParallelism);
    }
}
