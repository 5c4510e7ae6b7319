package io.pushline.schema;

import java.io.IOException;
import java.util.function.IntFunction;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Base of Pushline's hand-written serializers of mutable types: variable length, no instance reuse
 * (a copy and a read always make a new object). Subclasses write the wire form, the copy and the
 * snapshot.
 *
 * <p>The wire forms of all of them share one version number, the {@code form}: 1 wrote strings in
 * Flink's {@link StringValue} form, 2 (current) writes them as {@link Utf8}. A serializer made for
 * an older form reads and writes that form, so state written in it is migrated on restore.
 */
public abstract class CompactSerializer<T> extends TypeSerializer<T> {
    private static final long serialVersionUID = 1L;

    public static final int STRING_VALUE_FORM = 1;
    public static final int CURRENT_FORM = 2;

    private final int form;

    protected CompactSerializer(int form) {
        if (form < STRING_VALUE_FORM || form > CURRENT_FORM) {
            throw new IllegalArgumentException("unknown wire form " + form);
        }
        this.form = form;
    }

    public final int form() {
        return form;
    }

    protected final void writeString(String s, DataOutputView out) throws IOException {
        if (form == STRING_VALUE_FORM) {
            StringValue.writeString(s, out);
        } else {
            Utf8.write(out, s);
        }
    }

    protected final String readString(DataInputView in) throws IOException {
        return form == STRING_VALUE_FORM ? StringValue.readString(in) : Utf8.read(in);
    }

    /** A string whose values repeat from a small set: see {@link Utf8#readName}. */
    protected final String readName(DataInputView in) throws IOException {
        return form == STRING_VALUE_FORM ? StringValue.readString(in) : Utf8.readName(in);
    }

    /** A Boolean in two bits: 0 absent, 1 false, 2 true; shift it into a flags byte. */
    protected static int bits(Boolean b) {
        return b == null ? 0 : b ? 2 : 1;
    }

    /** The Boolean of {@link #bits}: pass the two bits, shifted down. */
    protected static Boolean bool(int bits) {
        return bits == 0 ? null : bits == 2;
    }

    /** Stateless: one instance serves every thread. */
    @Override
    public final TypeSerializer<T> duplicate() {
        return this;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((CompactSerializer<?>) o).form == form;
    }

    @Override
    public int hashCode() {
        return getClass().hashCode() * 31 + form;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public T copy(T from, T reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public T deserialize(T reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    /**
     * Snapshot of a compact serializer: its version is the wire form, and it restores a serializer
     * of the form the state was written in. State of an older form, and state the generic POJO
     * serializer wrote (before the type had a hand-written serializer), is migrated.
     */
    public abstract static class Snapshot<T> implements TypeSerializerSnapshot<T> {
        private final IntFunction<? extends TypeSerializer<T>> byForm;
        private int form = CURRENT_FORM;

        /** {@code byForm}: the serializer that reads and writes a given form. */
        protected Snapshot(IntFunction<? extends TypeSerializer<T>> byForm) {
            this.byForm = byForm;
        }

        /**
         * The snapshot of a serializer of {@code form}: one restored for older state and asked for
         * its snapshot again must not claim the current form for the bytes it writes.
         */
        public final Snapshot<T> writtenIn(int form) {
            if (form < STRING_VALUE_FORM || form > CURRENT_FORM) {
                throw new IllegalArgumentException("unknown wire form " + form);
            }
            this.form = form;
            return this;
        }

        @Override
        public int getCurrentVersion() {
            return versionOf(form);
        }

        /**
         * The snapshot version of state written in {@code form}: the form itself, unless the type
         * added fields to it. Then the current form has a version of its own, so that an older
         * Pushline refuses the savepoint with a clear message instead of misreading new values.
         */
        protected int versionOf(int form) {
            return form;
        }

        /**
         * The wire form of snapshot {@code version}, or -1 for a version this code does not know.
         */
        protected int formOf(int version) {
            return version >= STRING_VALUE_FORM && version <= CURRENT_FORM ? version : -1;
        }

        @Override
        public void writeSnapshot(DataOutputView out) {}

        @Override
        public void readSnapshot(int version, DataInputView in, ClassLoader loader)
                throws IOException {
            int f = formOf(version);
            if (f < 0) {
                throw new IOException(
                        "unknown "
                                + getClass().getName()
                                + " snapshot version "
                                + version
                                + ": state written by a newer Pushline; restore it with that"
                                + " version or newer");
            }
            form = f;
        }

        @Override
        public TypeSerializer<T> restoreSerializer() {
            return byForm.apply(form);
        }

        /**
         * Whether {@code old} is this serializer's snapshot, perhaps under a name the class had
         * before a rename (a savepoint holds the snapshot's class name).
         */
        protected boolean sameSerializer(TypeSerializerSnapshot<T> old) {
            return old.getClass() == getClass();
        }

        @Override
        public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
                TypeSerializerSnapshot<T> old) {
            if (sameSerializer(old)) {
                return ((Snapshot<T>) old).form == form
                        ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                        : TypeSerializerSchemaCompatibility.compatibleAfterMigration();
            }
            if (old instanceof PojoSerializerSnapshot) {
                return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
            }
            return TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
