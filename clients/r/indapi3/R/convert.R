# Values of the server as R values: tables as data.frames with R types, GeoJSON as sf,
# rasters as terra::SpatRaster.

.indapi3_state <- new.env(parent = emptyenv())

# The catalog (describe() of every indicator) of the current server, read once per R session.
.indapi3_catalog <- function() {
  key <- indapi3_server()
  if (is.null(.indapi3_state$catalog[[key]])) {
    resp <- .indapi3_perform(.indapi3_post("/library/indapi3/R/describe/json", list()))
    catalog <- jsonlite::fromJSON(httr2::resp_body_string(resp), simplifyVector = TRUE)
    .indapi3_state$catalog[[key]] <- catalog
  }
  .indapi3_state$catalog[[key]]
}

# Levels of a class column: the catalog's class labels in class order, then any other value
# met (in order of appearance).
.indapi3_levels <- function(x, labels) {
  lv <- if (length(labels) == 1 && !is.na(labels) && nzchar(labels)) strsplit(labels, "|", fixed = TRUE)[[1]] else character(0)
  seen <- unique(x[!is.na(x)])
  if (length(lv) == 0) seen <- sort(seen)
  unique(c(lv, seen))
}

# Columns of catchment's band tables that are classes: the bands and the sources' names.
.indapi3_band_columns <- c("band", "source")

# A table of the server as a data.frame: class columns of the catalog (and their `_by` group
# columns) as factors; interval labels of continuous `by` codes, catchment's bands and
# sources as factors in row order.
.indapi3_table <- function(x, by = NULL) {
  if (is.list(x) && !is.data.frame(x) && length(x) == 0) return(data.frame())
  if (!is.data.frame(x)) return(x)
  catalog <- .indapi3_catalog()
  for (col in names(x)) {
    v <- x[[col]]
    if (!is.character(v)) next
    code <- sub("_by$", "", col)
    i <- match(code, catalog$Code)
    if (!is.na(i) && identical(catalog$Type[i], "class")) {
      x[[col]] <- factor(v, levels = .indapi3_levels(v, catalog$ClassLabels[i]))
    } else if ((!is.na(i) && code %in% .indapi3_by_codes(by)) || col %in% .indapi3_band_columns) {
      x[[col]] <- factor(v, levels = unique(v[!is.na(v)]))
    }
  }
  x
}

.indapi3_by_codes <- function(by) if (is.list(by)) names(by) else as.character(by)

# A value read from the JSON API: tables typed; `list(meta, data)` with its data typed.
.indapi3_value <- function(v, by = NULL) {
  if (is.list(v) && !is.data.frame(v) && identical(sort(names(v)), c("data", "meta"))) {
    v$data <- .indapi3_table(v$data, by)
    if (is.list(v$meta) && length(v$meta) == 0) v$meta <- data.frame()
    return(v)
  }
  .indapi3_table(v, by)
}

# Files of a download as R objects where a reader is installed: one GeoJSON as sf, rasters
# (tif, asc, grd) as one terra::SpatRaster per file; otherwise the paths.
.indapi3_read_files <- function(paths, format) {
  geo <- grep("\\.(geo)?json$", paths, value = TRUE)
  geo <- geo[basename(geo) != "datapackage.json"]
  ras <- grep("\\.(tif|asc|grd)$", paths, value = TRUE)
  if (identical(format, "json") && length(geo) == 1 && requireNamespace("sf", quietly = TRUE)) {
    return(structure(sf::st_read(geo, quiet = TRUE), files = paths))
  }
  if (format %in% c("tif", "asc", "grd") && length(ras) >= 1 && requireNamespace("terra", quietly = TRUE)) {
    r <- lapply(ras, terra::rast)
    names(r) <- basename(ras)
    return(if (length(r) == 1) r[[1]] else r)
  }
  paths
}
