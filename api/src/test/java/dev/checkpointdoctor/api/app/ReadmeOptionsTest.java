package dev.checkpointdoctor.api.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's option table must list every option the code knows, with its env variable. */
class ReadmeOptionsTest {
  @Test
  void readmeDocumentsEveryOption() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    for (Option o : ServiceSettings.OPTIONS) {
      assertThat(readme).as("README mentions %s", o.flag()).contains("`" + o.flag());
      if (o.env() != null) {
        assertThat(readme).as("README mentions %s", o.env()).contains("`" + o.env() + "`");
      }
      if (o.defaultValue() != null) {
        assertThat(readme).as("README gives the default of %s", o.flag())
            .contains("`" + o.defaultValue() + "`");
      }
    }
  }
}
