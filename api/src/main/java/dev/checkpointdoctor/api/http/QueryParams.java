package dev.checkpointdoctor.api.http;

import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * Refuses query parameters a route does not know, and known ones given twice: a misspelt filter
 * ({@code ?sate=open}) or one the route does not have would otherwise be ignored and the
 * unfiltered answer taken for the filtered one.
 */
final class QueryParams {
  private QueryParams() {}

  /**
   * Answers 400 naming the first offending parameter and returns false, or returns true when
   * every parameter is one of {@code allowed} and given at most once.
   */
  static boolean accept(RoutingContext ctx, List<String> allowed) {
    for (String name : ctx.queryParams().names()) {
      String problem = null;
      if (!allowed.contains(name)) {
        problem = "unknown query parameter \"" + name + "\"; " + ctx.request().path()
            + (allowed.isEmpty() ? " takes none" : " takes " + String.join(", ", allowed));
      } else if (ctx.queryParams().getAll(name).size() > 1) {
        problem = "query parameter \"" + name + "\" given more than once";
      }
      if (problem != null) {
        Responses.error(ctx, 400, problem);
        return false;
      }
    }
    return true;
  }
}
