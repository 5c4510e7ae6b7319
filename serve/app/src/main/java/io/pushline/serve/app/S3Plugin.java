package io.pushline.serve.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;

/**
 * Flink's S3 filesystem for the dry run, loaded the way a Flink cluster loads it: as a plugin, in a
 * class loader of its own. serve's jar carries the plugin's jar as a resource; it is written to a
 * plugins folder under the dry run's temporary folder and Flink's filesystems are initialised with
 * it. On the plain classpath its Hadoop classes would meet the HBase client's older ones.
 */
final class S3Plugin {
    static final String RESOURCE = "/plugins/s3-fs-hadoop/flink-s3-fs-hadoop.jar";

    private S3Plugin() {}

    /** Initialises Flink's filesystems with {@code conf}, with the S3 one when this jar has it. */
    static void initialize(Configuration conf, Path tmp) throws IOException {
        Path root = tmp.resolve("plugins");
        try (InputStream in = S3Plugin.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                // not serve's jar (./pushline audience dry-run): local checkpoints only
                FileSystem.initialize(conf, null);
                return;
            }
            Path dir = Files.createDirectories(root.resolve("s3-fs-hadoop"));
            Files.copy(
                    in, dir.resolve("flink-s3-fs-hadoop.jar"), StandardCopyOption.REPLACE_EXISTING);
        }
        FileSystem.initialize(
                conf,
                new DefaultPluginManager(
                        new DirectoryBasedPluginFinder(root).findPlugins(),
                        CoreOptions.getPluginParentFirstLoaderPatterns(conf)));
    }
}
