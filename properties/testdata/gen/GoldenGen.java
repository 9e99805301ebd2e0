// GoldenGen writes the expected result of java.util.Properties.load(Reader)
// for every corpus/<name>.properties below the folder given as argument, as
// corpus/<name>.golden. The Go tests compare the Go reader against these
// files, so they never need a JVM. Run it with `make properties-golden`, or:
//
//	cd properties/testdata/gen && javac -d . GoldenGen.java && java -cp . GoldenGen ..
//
// A golden file is JSON, pure ASCII (every other character as a \\uxxxx
// escape of its UTF-16 code units, so lone surrogates survive), either
//
//	{"entries": {"key": "value", ...}}   keys sorted
//
// or, when load throws,
//
//	{"error": "<exception class>: <message>"}
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

public final class GoldenGen {
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java GoldenGen <folder holding corpus/>");
            System.exit(2);
        }
        Path corpus = Paths.get(args[0], "corpus");
        List<Path> inputs = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(corpus, "*.properties")) {
            for (Path p : ds) {
                inputs.add(p);
            }
        }
        Collections.sort(inputs);
        for (Path in : inputs) {
            String name = in.getFileName().toString();
            Path out = in.resolveSibling(name.substring(0, name.length() - ".properties".length()) + ".golden");
            try (Writer w = Files.newBufferedWriter(out, StandardCharsets.US_ASCII)) {
                w.write(golden(in));
            }
        }
        System.out.println("GoldenGen: wrote " + inputs.size() + " golden files with Java "
                + System.getProperty("java.version"));
    }

    // golden loads one file exactly as the Go reader's users would with Java:
    // UTF-8 through a Reader, no BOM handling.
    static String golden(Path in) throws IOException {
        Properties props = new Properties();
        try (Reader r = new InputStreamReader(Files.newInputStream(in), StandardCharsets.UTF_8)) {
            props.load(r);
        } catch (IllegalArgumentException e) {
            return "{\"error\": " + quote(e.getClass().getName() + ": " + e.getMessage()) + "}\n";
        }
        List<String> keys = new ArrayList<>(props.stringPropertyNames());
        Collections.sort(keys);
        StringBuilder sb = new StringBuilder("{\"entries\": {");
        String sep = "\n";
        for (String k : keys) {
            sb.append(sep).append("  ").append(quote(k)).append(": ").append(quote(props.getProperty(k)));
            sep = ",\n";
        }
        sb.append(keys.isEmpty() ? "}}\n" : "\n}}\n");
        return sb.toString();
    }

    // quote writes s as a JSON string in ASCII, escaping by UTF-16 code unit.
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
