# What every generated method function does (R/generated.R): the supplied arguments are
# sent as JSON; the answer is a typed table, or the call's files downloaded into `dir`.

# The arguments the caller supplied (by their full names), evaluated; NULL ones are left out
# so the server's default applies.
.indapi3_supplied <- function(call, env) {
  nm <- names(as.list(call))[-1]
  nm <- nm[!is.na(nm) & nzchar(nm)]
  if (length(nm) == 0) return(list())
  args <- mget(nm, envir = env)
  args[!vapply(args, is.null, logical(1))]
}

# Formats that are the table itself (no file is written).
.indapi3_table_formats <- c("data.table")
.indapi3_graphic_formats <- c("plot", "hist")

.indapi3_call_method <- function(method, args) {
  routed <- .indapi3_route_old_form(method, args)
  if (!is.null(routed)) return(routed)
  args <- .indapi3_encode_args(args)
  dir <- args$dir
  args$dir <- NULL
  format <- if (is.null(args$format)) (if (method == "genFile") "csv" else NULL) else tolower(trimws(args$format))
  if (is.null(format) || format %in% .indapi3_table_formats) return(.indapi3_cached_value(method, args))
  session <- ocpu_call(method, args)
  if (format %in% .indapi3_graphic_formats) {
    value <- .indapi3_value(session$value(), args$by)
    attr(value, "files") <- session$download(dir %||% tempdir())
    return(value)
  }
  # hcapi3 wrote files into the working directory; a method without `dir` (catchment) into tempdir()
  paths <- session$download(dir %||% (if ("dir" %in% .indapi3_signatures[[method]]) "." else tempdir()))
  if (method == "genFile") return(paths)
  .indapi3_read_files(paths, format)
}

# The JSON API's value of a call (through the opt-in disk cache); with
# options(indapi3.async = TRUE) run as a job and read from its session.
.indapi3_cached_value <- function(method, args) {
  .indapi3_cache_get_or_set(method, args, function() {
    if (isTRUE(getOption("indapi3.async", FALSE))) return(.indapi3_value(ocpu_call(method, args, async = TRUE)$value(), args$by))
    resp <- .indapi3_perform(.indapi3_post(sprintf("/library/indapi3/R/%s/json", method), args))
    .indapi3_value(jsonlite::fromJSON(httr2::resp_body_string(resp), simplifyVector = TRUE), args$by)
  })
}

# Arguments as the JSON API reads them: an sf object as its GeoJSON text, factors as strings.
.indapi3_encode_args <- function(args) {
  lapply(args, function(a) {
    if (inherits(a, "sf")) return(.indapi3_sf_geojson(a))
    if (is.factor(a)) return(as.character(a))
    a
  })
}

.indapi3_sf_geojson <- function(x) {
  f <- tempfile(fileext = ".geojson")
  on.exit(unlink(f))
  sf::st_write(sf::st_transform(x, 4326), f, driver = "GeoJSON", quiet = TRUE)
  paste(readLines(f, warn = FALSE, encoding = "UTF-8"), collapse = "\n")
}

# hcapi3's 2015 `classify(var, by)` form (breaks, or indicator codes, in place of `domains`)
# is routed to indapi(var, by = ...) with a message; NULL for every other call.
.indapi3_route_old_form <- function(method, args) {
  if (method != "classify") return(NULL)
  d <- args$domains
  old <- (is.numeric(d) && !is.list(d)) ||
    (is.character(d) && all(grepl("^[A-Za-z][A-Za-z0-9_]*$", d)) && is.null(names(d)))
  if (!old) return(NULL)
  by <- if (is.numeric(d)) stats::setNames(list(d), args$var[1]) else d
  message("classify(var, by) is hcapi3's old form: calling indapi(var, by = ...) instead ",
          "(indapi3's classify() summarises over polygons or points: see ?classify)")
  indapi(var = args$var, by = by)
}
