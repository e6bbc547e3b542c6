// Runs EPUBCheck on many EPUBs in one Java virtual machine: starting the
// JVM and loading EPUBCheck's schemas costs seconds per file (5 s and 9 s
// of CPU on two cores), checking a book well under one once they are
// loaded. It checks each file named as an argument or, given none, each
// path read from standard input, one per line, until it ends: the tests
// keep one running and send it every EPUB they make. For each file it prints
// "\u0001<file>", then EPUBCheck's report of it, then "\u0001exit <code>".
import com.adobe.epubcheck.tool.EpubChecker;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class EpubCheckBatch {
    public static void main(String[] files) throws IOException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        for (String file : files) {
            check(file, out);
        }
        if (files.length == 0) {
            BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String file;
            while ((file = in.readLine()) != null) {
                check(file, out);
            }
        }
        System.setOut(out);
        System.setErr(err);
    }

    private static void check(String file, PrintStream out) {
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(report, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        int code;
        try {
            code = new EpubChecker().run(new String[] {file});
        } catch (Throwable failure) {
            failure.printStackTrace(capture);
            code = 99;
        }
        capture.flush();
        out.print("\u0001" + file + "\n");
        out.print(report.toString(StandardCharsets.UTF_8));
        out.print("\u0001exit " + code + "\n");
        out.flush();
    }
}
