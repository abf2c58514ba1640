# The request encodings of OpenCPU's own R client (package `opencpu/client`: ocpu_post_json,
# ocpu_post_encoded, ocpu_post_multipart, ocpu_post_rds), sent with the curl package the way
# that client sends them, against the indapi3 HTTP contract. Every call's answer (/json) must
# equal the JSON-encoded call's; bad R objects must answer 400 naming what was wrong.
# Prints a transcript; the last line is a JSON summary. Stops on the first difference.
#
#   Rscript tests/r/encodings.R http://localhost:8080
suppressMessages({ library(curl); library(jsonlite) })

args <- commandArgs(TRUE)
host <- sub("/+$", "", if (length(args)) args[1] else "http://localhost:8080")
lib <- paste0(host, "/ocpu/library/indapi3/R/")
check <- function(ok, ...) if (!isTRUE(ok)) stop(paste0(...), call. = FALSE)

send <- function(path, h) {
  r <- curl_fetch_memory(paste0(lib, path), handle = h)
  list(status = r$status_code, text = rawToChar(r$content), headers = parse_headers_list(r$headers))
}
# ocpu_post_json: toJSON(args), application/json
post_json <- function(m, a, path = "/json") {
  h <- new_handle(copypostfields = as.character(toJSON(a)))
  handle_setheaders(h, "Content-Type" = "application/json")
  send(paste0(m, path), h)
}
# ocpu_post_rds: serialize(args, NULL), application/rds (bytes as given: a saveRDS() file too)
post_rds <- function(m, a, path = "/json", bytes = serialize(a, NULL)) {
  h <- new_handle(copypostfields = bytes)
  handle_setheaders(h, "Content-Type" = "application/rds")
  send(paste0(m, path), h)
}
# ocpu_post_encoded: name=curl_escape(deparse(value)), form-urlencoded
post_encoded <- function(m, a) {
  data <- paste(names(a), vapply(a, function(x) curl_escape(deparse(x)), ""), sep = "=", collapse = "&")
  send(paste0(m, "/json"), new_handle(copypostfields = data))
}
# ocpu_post_multipart: atomic values as curl_escape(deparse(x)), others as application/rds parts
post_multipart <- function(m, a) {
  values <- lapply(a, function(x) if (is.atomic(x)) curl_escape(deparse(x)) else form_data(serialize(x, NULL), "application/rds"))
  send(paste0(m, "/json"), handle_setform(new_handle(), .list = values))
}
saved_rds <- function(a, version) {
  f <- tempfile(fileext = ".rds")
  saveRDS(a, f, version = version)
  on.exit(unlink(f))
  readBin(f, "raw", file.size(f))
}

calls <- list(
  indapi = list(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT"),
  getLayer = list(var = c("ELEVATION", "AREA_TOTAL"), iso3 = c("KEN", "UGA"), by = list(ELEVATION = c(0, 500, 1500))),
  category = list(q = "elevation"),
  catchment = list(xy = c(36.82, -1.29), minutes = c(0, 60, 120, 240), var = "PN14_POP")
)
summary <- list()
for (m in names(calls)) {
  a <- calls[[m]]
  ref <- post_json(m, a)
  check(ref$status == 201, m, " (json): ", ref$status, " ", ref$text)
  want <- fromJSON(ref$text)
  answers <- list(
    `rds v3` = post_rds(m, a),
    `rds v2` = post_rds(m, a, bytes = serialize(a, NULL, version = 2)),
    `saveRDS gzip v3` = post_rds(m, a, bytes = saved_rds(a, 3)),
    `saveRDS gzip v2` = post_rds(m, a, bytes = saved_rds(a, 2)),
    `rds little-endian` = post_rds(m, a, bytes = serialize(a, NULL, xdr = FALSE)),
    multipart = post_multipart(m, a),
    encoded = post_encoded(m, a)
  )
  for (enc in names(answers)) {
    r <- answers[[enc]]
    check(r$status == 201, m, " (", enc, "): ", r$status, " ", r$text)
    check(identical(fromJSON(r$text), want), m, " (", enc, "): the answer differs from the JSON call's")
  }
  cat(sprintf("%-9s %d rows: json = %s, all equal\n", m, NROW(want), paste(names(answers), collapse = " = ")))
  summary[[m]] <- NROW(want)
}

# A factor and R's own numbers: the same answer as the character / numeric JSON call.
a <- list(var = "ELEVATION", iso3 = factor(c("KEN", "UGA")), by = list(ELEVATION = c(0L, 500L, 1500L)))
r <- post_rds("getLayer", a)
j <- post_json("getLayer", list(var = "ELEVATION", iso3 = c("KEN", "UGA"), by = list(ELEVATION = c(0, 500, 1500))))
check(r$status == 201 && identical(fromJSON(r$text), fromJSON(j$text)), "factor iso3: ", r$status, " ", r$text)
cat("getLayer  factor iso3 and integer breaks (rds) = character and numeric (json)\n")

# ocpu_post_rds in full: the session's value read back with readRDS(gzcon(rawConnection())).
r <- post_rds("getLayer", calls$getLayer, path = "")
check(r$status == 201, "getLayer (rds, session): ", r$status)
v <- curl_fetch_memory(paste0(r$headers$location, "R/.val/rds"))
val <- readRDS(gzcon(rawConnection(v$content)))
want <- fromJSON(post_json("getLayer", calls$getLayer)$text)
check(is.data.frame(val) && nrow(val) == nrow(want) && all(names(want) %in% names(val)), "R/.val/rds differs")
check(isTRUE(all.equal(val$ELEVATION, want$ELEVATION)), "R/.val/rds ELEVATION differs")
cat(sprintf("getLayer  ocpu_post_rds: session %s, R/.val/rds is a data.frame of %d rows\n", r$headers[["x-ocpu-session"]], nrow(val)))

# Bad bodies: 400 naming what was wrong, before any work.
bad <- list(
  closure = list(bytes = serialize(list(var = function(x) x), NULL), says = "args[[1]] is a function (closure)"),
  environment = list(bytes = serialize(list(var = globalenv()), NULL), says = "environment"),
  language = list(bytes = serialize(list(var = quote(system("id"))), NULL), says = "language object"),
  `not a list` = list(bytes = serialize(c("ELEVATION", "KEN"), NULL), says = "named list"),
  unnamed = list(bytes = serialize(list("ELEVATION"), NULL), says = "has no name"),
  `compact 1:1e9` = list(bytes = serialize(list(ids = 1:1e9), NULL), says = "args[[1]] takes the object past 2000000 elements"),
  `gzip bomb` = list(bytes = saved_rds(list(q = strrep("a", 3e7)), 3), says = "the limit"),
  `nested 100` = list(bytes = serialize(list(q = Reduce(function(x, i) list(x), 1:100, "x")), NULL), says = "lists nest more than 64 levels deep in args")
)
for (b in names(bad)) {
  r <- post_rds("category", NULL, bytes = bad[[b]]$bytes)
  check(r$status == 400, b, ": status ", r$status, " ", r$text)
  check(grepl(bad[[b]]$says, r$text, fixed = TRUE), b, ": message ", r$text)
  cat(sprintf("bad body  %-14s (%7d bytes) -> %d %s\n", b, length(bad[[b]]$bytes), r$status, sub("\n.*", "", r$text)))
}
summary$bad <- length(bad)
cat(as.character(toJSON(summary, auto_unbox = TRUE)), "\n")
