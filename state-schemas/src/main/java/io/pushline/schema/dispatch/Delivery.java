package io.pushline.schema.dispatch;

/**
 * The name {@link DevicePush} had before it was renamed, kept only so that savepoints whose gate
 * state the generic POJO serializer wrote (it records the class by name) still restore: it reads
 * them as these, which are device pushes, and the gate writes them back as {@link DevicePush}.
 * Never create one.
 */
@Deprecated
public final class Delivery extends DevicePush {
    public Delivery() {}
}
