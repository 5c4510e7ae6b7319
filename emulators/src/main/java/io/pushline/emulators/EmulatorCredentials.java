package io.pushline.emulators;

/** The credentials an emulator accepts (made up per run; FCM's come as a service-account file). */
public record EmulatorCredentials(String appId, String appKey, String secret) {
    @Override
    public String toString() {
        return "app " + appId;
    }
}
