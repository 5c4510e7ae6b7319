package io.pushline.schema.registry;

import java.util.List;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Keyed state of the device registry. Names are part of savepoint compatibility: never rename.
 *
 * <p>No TTL here on purpose: a binding is live until an unbind, however long the device stays
 * quiet, and an unbind clears it.
 */
public final class RegistryState {
    private RegistryState() {}

    /** Registry operator, keyed by deviceId: the device's current binding, absent when unbound. */
    public static ValueStateDescriptor<DeviceInfo> device() {
        return new ValueStateDescriptor<>("registry-device", TypeInformation.of(DeviceInfo.class));
    }

    /** Uid index operator, keyed by uid: deviceId to binding of every device bound to the uid. */
    public static MapStateDescriptor<String, DeviceInfo> uidDevices() {
        return new MapStateDescriptor<>(
                "registry-uid-devices", Types.STRING, TypeInformation.of(DeviceInfo.class));
    }

    /** Event-time buffer of any ordered stage: timestamp to the records waiting for it. */
    public static <T> MapStateDescriptor<Long, List<T>> buffer(String name, Class<T> type) {
        return new MapStateDescriptor<>(name, Types.LONG, Types.LIST(TypeInformation.of(type)));
    }
}
