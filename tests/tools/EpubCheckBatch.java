// Runs EPUBCheck on several EPUBs in one Java virtual machine: starting the
// JVM and loading EPUBCheck's schemas costs seconds per file, checking a
// book well under one once they are loaded. For each argument it prints
// "\u0001<file>", then EPUBCheck's report of it, then "\u0001exit <code>".
import com.adobe.epubcheck.tool.EpubChecker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class EpubCheckBatch {
    public static void main(String[] files) {
        PrintStream out = System.out;
        for (String file : files) {
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
        System.setOut(out);
    }
}
