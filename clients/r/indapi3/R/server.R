# The server, the HTTP requests (httr2 0.2.2: request, req_*, resp_*) and the errors.

.indapi3_default_server <- "http://localhost:8080/ocpu"

`%||%` <- function(a, b) if (is.null(a) || length(a) == 0 || identical(a, "")) b else a

indapi3_server <- function() {
  s <- getOption("indapi3.server") %||% Sys.getenv("INDAPI3_SERVER") %||% .indapi3_default_server
  sub("/+$", "", s)
}

.indapi3_user_agent <- function() {
  sprintf("indapi3 R package %s (httr2 %s; R %s)", utils::packageVersion("indapi3"),
          utils::packageVersion("httr2"), getRversion())
}

# A request to the server: user agent, timeout, retries on 429/503 honouring Retry-After
# (httr2's defaults for `is_transient` and `after`), and no automatic error: .indapi3_perform
# turns an error status into an indapi3_error condition carrying the server's message.
.indapi3_request <- function(url) {
  req <- httr2::request(url)
  req <- httr2::req_user_agent(req, .indapi3_user_agent())
  req <- httr2::req_timeout(req, getOption("indapi3.timeout", 600))
  req <- httr2::req_retry(req, max_tries = getOption("indapi3.max_tries", 4),
                          is_transient = function(resp) httr2::resp_status(resp) %in% c(429, 503))
  httr2::req_error(req, is_error = function(resp) FALSE)
}

.indapi3_perform <- function(req, path = NULL) {
  resp <- tryCatch(httr2::req_perform(req, path = path), error = function(e) {
    cond <- structure(class = c("indapi3_connection_error", "indapi3_error", "error", "condition"),
      list(message = sprintf("Cannot reach the indapi3 server at %s: %s (set options(indapi3.server = ) or INDAPI3_SERVER)",
                             indapi3_server(), conditionMessage(e)), call = NULL, status = NA_integer_, url = req$url))
    stop(cond)
  })
  status <- httr2::resp_status(resp)
  if (status >= 400) .indapi3_abort(resp, req$url)
  resp
}

# Signals the server's error as an R condition of class `indapi3_error` with the HTTP status,
# the server's text (message, blank line, "In call:" and the call) and the URL.
.indapi3_abort <- function(resp, url) {
  status <- httr2::resp_status(resp)
  body <- tryCatch(httr2::resp_body_string(resp), error = function(e) "")
  text <- trimws(body)
  msg <- if (nzchar(text)) text else httr2::resp_status_desc(resp)
  cond <- structure(class = c(paste0("indapi3_http_", status), "indapi3_error", "error", "condition"),
    list(message = sprintf("%s\n(indapi3 server, HTTP %d)", msg, status), call = NULL,
         status = status, body = body, url = url))
  stop(cond)
}

# POST of a method's arguments as one JSON object.
.indapi3_post <- function(path, args) {
  req <- .indapi3_request(paste0(indapi3_server(), path))
  httr2::req_body_raw(req, .indapi3_json(args), type = "application/json")
}

# The JSON body of a call: one member per argument; length-1 vectors as scalars, NA as null,
# numbers with all their digits.
.indapi3_json <- function(args) {
  if (length(args) == 0) return("{}")
  as.character(jsonlite::toJSON(args, auto_unbox = TRUE, digits = NA, na = "null", null = "null"))
}

indapi3_available <- function(timeout = 5) {
  req <- .indapi3_request(paste0(indapi3_server(), "/library/indapi3/DESCRIPTION"))
  req <- httr2::req_timeout(httr2::req_retry(req, max_tries = 1), timeout)
  ok <- tryCatch(httr2::resp_status(httr2::req_perform(req)) == 200, error = function(e) FALSE)
  isTRUE(ok)
}
