package io.pushline.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.OptionsParser;
import io.pushline.schema.Vendor;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class GatewayOptionsTest {
    @Test
    void everyOptionIsTheGatewaysAndVendorsDefaultToTheirRealEndpoints() {
        assertThat(GatewayOptions.own())
                .allSatisfy(o -> assertThat(o.key()).startsWith("gateway."));
        Configuration o =
                Configuration.fromMap(
                        Map.of(
                                "gateway.vendors",
                                "huawei",
                                "gateway.huawei.app-id",
                                "1",
                                "gateway.huawei.secret",
                                "s"));
        var s = GatewayOptions.vendors(o).get(0);
        assertThat(s.vendor()).isEqualTo(Vendor.HUAWEI);
        assertThat(s.url()).isEqualTo("https://push-api.cloud.huawei.com");
        assertThat(s.authUrl()).isEqualTo("https://oauth-login.cloud.huawei.com");
        assertThat(s.toString()).doesNotContain("s,").doesNotContain("secret");
    }

    @Test
    void aMissingCredentialOrAnUnknownVendorStopsStartUpNamingTheKey() {
        assertThatThrownBy(
                        () ->
                                GatewayOptions.vendors(
                                        Configuration.fromMap(Map.of("gateway.vendors", "fcm"))))
                .isInstanceOf(OptionsParser.InvalidOptionException.class)
                .hasMessageContaining("gateway.fcm.credentials");
        assertThatThrownBy(
                        () ->
                                GatewayOptions.vendors(
                                        Configuration.fromMap(
                                                Map.of(
                                                        "gateway.vendors",
                                                        "apns",
                                                        "gateway.apns.app-id",
                                                        "x"))))
                .hasMessageContaining("gateway.apns.app-key");
        assertThatThrownBy(
                        () ->
                                GatewayOptions.vendors(
                                        Configuration.fromMap(
                                                Map.of("gateway.vendors", "longconn"))))
                .hasMessageContaining("gateway.vendors");
    }
}
