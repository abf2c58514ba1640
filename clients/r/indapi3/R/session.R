# The server's sessions (OpenCPU): a call of a method creates one; its value and files are
# read from it.

ocpu_call <- function(fun, args = list(), package = "indapi3") {
  stopifnot(is.character(fun), length(fun) == 1, is.list(args))
  resp <- .indapi3_perform(.indapi3_post(sprintf("/library/%s/R/%s", package, fun), args))
  key <- httr2::resp_header(resp, "x-ocpu-session")
  location <- httr2::resp_header(resp, "location")
  paths <- strsplit(httr2::resp_body_string(resp), "\n", fixed = TRUE)[[1]]
  paths <- paths[nzchar(paths)]
  rel <- sub("^.*?/tmp/[^/]+/", "", paths)
  url <- sub("/+$", "/", location %||% paste0(indapi3_server(), "/tmp/", key, "/"))
  session <- list(key = key, url = url, fun = fun, args = args, paths = rel,
                  files = grep("^files/", rel, value = TRUE))
  session$value <- function(simplify = TRUE) .indapi3_session_value(url, simplify)
  session$download <- function(dir = tempdir(), files = session$files) .indapi3_download(url, files, dir)
  structure(session, class = "indapi3_session")
}

print.indapi3_session <- function(x, ...) {
  cat("<indapi3 session ", x$key, ">\n", "  call:  ", x$fun, "(", .indapi3_json(x$args), ")\n",
      "  url:   ", x$url, "\n", "  files: ", if (length(x$files)) paste(sub("^files/", "", x$files), collapse = ", ") else "(none)", "\n",
      sep = "")
  invisible(x)
}

.indapi3_session_value <- function(url, simplify = TRUE) {
  resp <- .indapi3_perform(.indapi3_request(paste0(url, "R/.val/json")))
  jsonlite::fromJSON(httr2::resp_body_string(resp), simplifyVector = simplify)
}

# Downloads session files (paths relative to the session, e.g. "files/x.csv") into `dir`;
# returns the local paths. A file is written under a temporary name and renamed when whole.
.indapi3_download <- function(url, files, dir) {
  dir.create(dir, showWarnings = FALSE, recursive = TRUE)
  out <- character(0)
  for (f in files) {
    dest <- file.path(dir, basename(f))
    part <- paste0(dest, ".part")
    on.exit(unlink(part), add = TRUE)
    href <- paste0(url, paste(vapply(strsplit(f, "/", fixed = TRUE)[[1]], utils::URLencode, "", reserved = TRUE), collapse = "/"))
    .indapi3_perform(httr2::req_url(.indapi3_request(href), href), path = part)
    if (!file.rename(part, dest)) stop("cannot write ", dest)
    out <- c(out, normalizePath(dest))
  }
  out
}
