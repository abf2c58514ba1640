# The server's sessions (OpenCPU): a call of a method creates one; its value and files are
# read from it.

ocpu_call <- function(fun, args = list(), package = "indapi3", async = getOption("indapi3.async", FALSE)) {
  stopifnot(is.character(fun), length(fun) == 1, is.list(args))
  req <- .indapi3_post(sprintf("/library/%s/R/%s", package, fun), args)
  if (isTRUE(async)) req <- httr2::req_headers(req, Prefer = "respond-async")
  resp <- .indapi3_perform(req)
  key <- httr2::resp_header(resp, "x-ocpu-session")
  url <- sub("/*$", "/", httr2::resp_header(resp, "location") %||% paste0(indapi3_server(), "/tmp/", key, "/"))
  if (httr2::resp_status(resp) == 202) {
    .indapi3_wait_job(url)
    resp <- .indapi3_perform(.indapi3_request(url))
  }
  paths <- strsplit(httr2::resp_body_string(resp), "\n", fixed = TRUE)[[1]]
  rel <- sub("^.*?/tmp/[^/]+/", "", paths[nzchar(paths)])
  session <- list(key = key, url = url, fun = fun, args = args, paths = rel,
                  files = grep("^files/", rel, value = TRUE))
  session$value <- function(simplify = TRUE) .indapi3_session_value(url, simplify)
  session$download <- function(dir = tempdir(), files = session$files) .indapi3_download(url, files, dir)
  structure(session, class = "indapi3_session")
}

# Waits for a job (a call sent with `Prefer: respond-async`) by polling its `status`: returns
# when it is done, signals the call's error (an indapi3_error with the status it would have
# answered) when it failed or was cancelled. Interrupting R cancels the job (DELETE).
.indapi3_wait_job <- function(url) {
  done <- FALSE
  on.exit(if (!done) try(httr2::req_perform(httr2::req_method(.indapi3_request(url), "DELETE")), silent = TRUE))
  wait <- 0.05
  repeat {
    st <- jsonlite::fromJSON(httr2::resp_body_string(.indapi3_perform(.indapi3_request(paste0(url, "status")))))
    if (identical(st$state, "done")) break
    if (st$state %in% c("failed", "cancelled")) {
      done <- TRUE
      status <- st$status %||% 500L
      stop(structure(class = c(paste0("indapi3_http_", status), "indapi3_error", "error", "condition"),
        list(message = sprintf("%s\n(indapi3 server, job %s, HTTP %d)", st$message %||% st$state, st$state, status),
             call = NULL, status = status, body = st$message %||% "", url = url)))
    }
    Sys.sleep(wait)
    wait <- min(wait * 2, getOption("indapi3.poll_seconds", 2))
  }
  done <- TRUE
  invisible(TRUE)
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
