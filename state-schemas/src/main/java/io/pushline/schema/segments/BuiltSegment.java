package io.pushline.schema.segments;

/** What the segment build wrote for one segment. */
public class BuiltSegment {
    public String name;
    public long version;
    public long cardinality;

    /**
     * Whether a package file replaced the membership (else changes applied to the last version).
     */
    public boolean fromFile;

    public long fileRows;
    public long adds;
    public long removes;

    public BuiltSegment() {}

    @Override
    public String toString() {
        return name
                + " v"
                + version
                + ": "
                + cardinality
                + " members"
                + (fromFile ? " (file: " + fileRows + " rows" : " (")
                + (fromFile ? ", " : "")
                + adds
                + " adds, "
                + removes
                + " removes)";
    }
}
