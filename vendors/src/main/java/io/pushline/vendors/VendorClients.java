package io.pushline.vendors;

/** Makes the client of a vendor from its settings. */
public final class VendorClients {
    private VendorClients() {}

    /**
     * @param connections APNs' HTTP/2 connections (the others' pools grow to what is in flight)
     */
    public static VendorClient of(VendorSettings s, int connections) {
        switch (s.vendor()) {
            case APNS:
                return new ApnsClient(s, connections);
            case FCM:
                return new FcmClient(s);
            case HUAWEI:
                return new HuaweiClient(s);
            case HONOR:
                return new HonorClient(s);
            case XIAOMI:
                return new XiaomiClient(s);
            case OPPO:
                return new OppoClient(s);
            case VIVO:
                return new VivoClient(s);
            default:
                throw new IllegalArgumentException(
                        s.vendor().wireName()
                                + " has no vendor API: the long connection is the app's own");
        }
    }
}
