package io.pushline.schema.dispatch;

/**
 * The name {@link RegistryInput} had before it was renamed, kept only so that savepoints of the
 * registry's queue, which the generic POJO serializer wrote (it records the class by name), still
 * restore: they are read as these, which are registry inputs, and written back as {@link
 * RegistryInput}. Never create one.
 */
@Deprecated
public final class DeviceKeyed extends RegistryInput {
    public DeviceKeyed() {}
}
