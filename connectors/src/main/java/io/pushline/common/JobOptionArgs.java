package io.pushline.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The preprocessor of a picocli command that takes job options ({@code --key value}, a job's {@code
 * ConfigOption}s) beside its own flags: when the command is matched, every {@code --key value} or
 * {@code --key=value} that is not one of the command's own options moves to {@link
 * Target#jobOptions()}, where {@link OptionsParser} checks it against the job's options and names
 * an unknown or malformed key. The command's own flags and positional parameters stay with picocli.
 */
public final class JobOptionArgs implements IParameterPreprocessor {
    /** A command that takes job options. */
    public interface Target {
        /** The job options given, as {@code --key value} pairs in order. */
        List<String> jobOptions();
    }

    /** A {@link Target} that keeps the job options in a list of its own. */
    public abstract static class Command implements Target {
        private final List<String> jobOptions = new ArrayList<>();

        @Override
        public List<String> jobOptions() {
            return jobOptions;
        }
    }

    @Override
    public boolean preprocess(
            Stack<String> args, CommandSpec spec, ArgSpec argSpec, Map<String, Object> info) {
        List<String> options = ((Target) spec.userObject()).jobOptions();
        List<String> rest = new ArrayList<>();
        while (!args.isEmpty()) {
            String arg = args.pop();
            if (arg.equals("--")) {
                rest.add(arg);
                while (!args.isEmpty()) {
                    rest.add(args.pop());
                }
            } else if (arg.startsWith("--") && arg.length() > 2 && !ownOption(spec, arg)) {
                options.add(arg);
                if (!arg.contains("=")) {
                    if (args.isEmpty()) {
                        throw new ParameterException(
                                spec.commandLine(), "option '" + arg + "' needs a value");
                    }
                    options.add(args.pop());
                }
            } else {
                rest.add(arg);
            }
        }
        for (int i = rest.size() - 1; i >= 0; i--) {
            args.push(rest.get(i));
        }
        return false;
    }

    private static boolean ownOption(CommandSpec spec, String arg) {
        int eq = arg.indexOf('=');
        return spec.findOption(eq < 0 ? arg : arg.substring(0, eq)) != null;
    }
}
