# Opt-in disk cache of the JSON API's values, keyed by server, method, arguments and the
# server's bundle version (its data/manifest.json), so a new bundle never serves old values.

indapi3_cache <- function(dir = tools::R_user_dir("indapi3", "cache")) {
  if (isFALSE(dir) || is.null(dir)) {
    options(indapi3.cache = NULL)
    return(invisible(NULL))
  }
  if (isTRUE(dir)) dir <- tools::R_user_dir("indapi3", "cache")
  dir.create(dir, showWarnings = FALSE, recursive = TRUE)
  options(indapi3.cache = normalizePath(dir))
  invisible(getOption("indapi3.cache"))
}

# The server's bundle version, read once per R session and server; NA when the server has no
# manifest at <server without /ocpu>/data/manifest.json (then nothing is cached).
.indapi3_bundle_version <- function() {
  key <- indapi3_server()
  if (is.null(.indapi3_state$bundle[[key]])) {
    url <- paste0(sub("/ocpu$", "", key), "/data/manifest.json")
    v <- tryCatch({
      m <- jsonlite::fromJSON(httr2::resp_body_string(.indapi3_perform(.indapi3_request(url))))
      paste(m$name, m$version)
    }, error = function(e) NA_character_)
    .indapi3_state$bundle[[key]] <- v
  }
  .indapi3_state$bundle[[key]]
}

.indapi3_cache_key <- function(method, args, version) {
  f <- tempfile()
  on.exit(unlink(f))
  writeLines(c(indapi3_server(), method, .indapi3_json(args), version), f, useBytes = TRUE)
  unname(tools::md5sum(f))
}

.indapi3_cache_get_or_set <- function(method, args, compute) {
  dir <- getOption("indapi3.cache")
  if (is.null(dir)) return(compute())
  version <- .indapi3_bundle_version()
  if (is.na(version)) return(compute())
  file <- file.path(dir, paste0(method, "-", .indapi3_cache_key(method, args, version), ".rds"))
  if (file.exists(file)) return(readRDS(file))
  value <- compute()
  part <- paste0(file, ".part")
  saveRDS(value, part)
  file.rename(part, file)
  value
}
