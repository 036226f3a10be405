package dev.checkpointdoctor.api.http;

import java.util.List;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Heading;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * A docs page as a web page: the Markdown rendered by commonmark-java (BSD-2-Clause) with GitHub
 * tables, in the UI's frame and style. Links to sibling {@code .md} pages point at their HTML
 * form, so a runbook reached from an alert can be read and followed in the browser. Raw HTML in
 * the Markdown is escaped, not passed through.
 */
final class DocsRenderer {
  /** A relative link to another docs page: {@code state_growth.md}, {@code ../x/README.md#a}. */
  private static final Pattern PAGE_LINK =
      Pattern.compile("^(?![a-zA-Z][a-zA-Z0-9+.-]*:)(?!/)[^?#]*\\.md(#.*)?$");

  private final Parser parser = Parser.builder()
      .extensions(List.of(TablesExtension.create())).build();
  private final HtmlRenderer renderer = HtmlRenderer.builder()
      .extensions(List.of(TablesExtension.create()))
      .escapeHtml(true)
      .sanitizeUrls(true)
      .attributeProviderFactory(context -> (node, tag, attributes) -> {
        if (node instanceof Link && attributes.containsKey("href")) {
          String href = htmlLink(attributes.get("href"));
          attributes.put("href", href);
          if (!href.contains(":")) {
            attributes.remove("rel"); // nofollow is for links out, not to the next runbook
          }
        }
      })
      .build();

  /** The whole HTML document for {@code path} (e.g. {@code causes/gc_pressure.md}). */
  String page(String path, String markdown) {
    Node document = parser.parse(markdown);
    String title = title(document, path);
    String name = path.substring(path.lastIndexOf('/') + 1);
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        + "<title>" + escape(title) + " · Checkpoint Doctor</title>\n"
        + "<link rel=\"icon\" href=\"/ui/favicon.svg\" type=\"image/svg+xml\">\n"
        + "<link rel=\"stylesheet\" href=\"/ui/app.css\">\n</head>\n"
        + "<body data-page=\"docs\" data-doc=\"" + escape(path) + "\">\n"
        + "<header class=\"top\"><a class=\"brand\" href=\"/ui/\">Checkpoint Doctor</a>"
        + "<nav><a href=\"/ui/\">Jobs</a><a href=\"/ui/anomalies.html\">Anomalies</a>"
        + "<a href=\"/docs/causes/README.html\">Causes</a></nav></header>\n"
        + "<main class=\"doc\">\n" + renderer.render(document)
        + "<p class=\"muted doc-source\">Source: <a href=\"" + escape(name) + "\">docs/"
        + escape(path) + "</a></p>\n</main>\n</body>\n</html>\n";
  }

  static String htmlLink(String href) {
    if (!PAGE_LINK.matcher(href).matches()) {
      return href;
    }
    int hash = href.indexOf('#');
    String target = hash < 0 ? href : href.substring(0, hash);
    String fragment = hash < 0 ? "" : href.substring(hash);
    return target.substring(0, target.length() - ".md".length()) + ".html" + fragment;
  }

  private static String title(Node document, String path) {
    for (Node n = document.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof Heading) {
        StringBuilder sb = new StringBuilder();
        collectText(n, sb);
        if (sb.length() > 0) {
          return sb.toString();
        }
      }
    }
    return path;
  }

  private static void collectText(Node node, StringBuilder sb) {
    for (Node n = node.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof Text t) {
        sb.append(t.getLiteral());
      } else if (n instanceof org.commonmark.node.Code c) {
        sb.append(c.getLiteral());
      } else {
        collectText(n, sb);
      }
    }
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
