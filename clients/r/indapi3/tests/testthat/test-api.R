# Each function's answer against the JSON API called directly (needs a server: INDAPI3_SERVER).

test_that("every method of the server is a function here with the server's usage", {
  skip_without_server()
  names <- strsplit(httr2::resp_body_string(httr2::req_perform(httr2::request(paste0(indapi3_server(), "/library/indapi3/R/")))), "\n")[[1]]
  names <- names[nzchar(names)]
  expect_setequal(names, names(indapi3:::.indapi3_signatures))
  for (m in names) {
    f <- formals(getExportedValue("indapi3", m))
    usage <- paste0(m, "(", paste(vapply(names(f), function(a) {
      if (is.symbol(f[[a]]) && identical(as.character(f[[a]]), "")) a else paste(a, "=", paste(deparse(f[[a]]), collapse = ""))
    }, ""), collapse = ", "), ")")
    served <- readLines(paste0(indapi3_server(), "/library/indapi3/R/", m, "/print"), n = 1, warn = FALSE)
    expect_equal(usage, served, info = m)
  }
})

test_that("indapi / hcapi give the API's table with factors for class columns", {
  skip_without_server()
  x <- hcapi("ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT")
  expect_s3_class(x, "data.frame")
  expect_equal(plain(x), api("indapi", list(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT")))
  expect_true(is.factor(x$ADM1_NAME_ALT))
  expect_true(is.integer(x$ELEVATION) || is.double(x$ELEVATION))
  expect_true(anyNA(x$ADM1_NAME_ALT))
})

test_that("getLayer: class levels are the catalog's class labels in order", {
  skip_without_server()
  x <- getLayer(c("ELEVATION", "ELEV_ZONE"), iso3 = "KEN", by = "ELEV_ZONE")
  expect_equal(plain(x), api("getLayer", list(var = c("ELEVATION", "ELEV_ZONE"), iso3 = "KEN", by = "ELEV_ZONE")))
  labels <- strsplit(describe("ELEV_ZONE")$ClassLabels, "|", fixed = TRUE)[[1]]
  expect_equal(levels(x$ELEV_ZONE), labels)
  expect_equal(levels(x$ELEV_ZONE_by), labels)
  l <- getLayer("ELEVATION", iso3 = "KEN", by = list(ELEVATION = c(0, 1000, 2000, 6000)), as.list = TRUE)
  direct <- api("getLayer", list(var = "ELEVATION", iso3 = "KEN", by = list(ELEVATION = c(0, 1000, 2000, 6000)), as.list = TRUE))
  expect_equal(plain(l$data), direct$data)
  expect_equal(l$meta, direct$meta)
  expect_true(is.factor(l$data$ELEVATION_by))
})

test_that("getLayerWKT, classify, similar, catchment, category and describe give the API's tables", {
  skip_without_server()
  box <- "POLYGON((36 -2, 38 -2, 38 0, 36 0, 36 -2))"
  expect_equal(plain(getLayerWKT("ELEVATION", wkt = box)), api("getLayerWKT", list(var = "ELEVATION", wkt = box)))
  doms <- list(nairobi = "POINT(36.82 -1.29)", box = box)
  expect_equal(plain(classify("ELEVATION", doms)), api("classify", list(var = "ELEVATION", domains = doms)))
  expect_equal(plain(similar("Eastern", c("ELEVATION", "DIST_COAST"), by = 1, iso3 = "KEN")),
               api("similar", list(x = "Eastern", var = c("ELEVATION", "DIST_COAST"), by = 1, iso3 = "KEN")))
  bands <- catchment(xy = c(36.82, -1.29), minutes = c(0, 60, 120), iso3 = "KEN")
  expect_equal(plain(bands), api("catchment", list(xy = c(36.82, -1.29), minutes = c(0, 60, 120), iso3 = "KEN")))
  expect_equal(levels(bands$band), c("[0,60]", "(60,120]"))
  expect_equal(category(q = "elevation"), api("category", list(q = "elevation")))
  expect_equal(indicator("ELEVATION"), api("describe", list(var = "ELEVATION")))
})

test_that("classify's old hcapi3 form is routed to indapi(var, by) with a message", {
  skip_without_server()
  expect_message(x <- classify("ELEVATION", c(0, 500, 1000)), "old form")
  expect_equal(plain(x), api("indapi", list(var = "ELEVATION", by = list(ELEVATION = c(0, 500, 1000)))))
})

test_that("genFile downloads the session's files into dir and returns their paths", {
  skip_without_server()
  d <- file.path(tempdir(), "genfile")
  f <- genFile("ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT", format = "csv", dir = d)
  expect_true(all(file.exists(f)))
  expect_equal(normalizePath(dirname(f)), rep(normalizePath(d), length(f)))
  csv <- utils::read.csv(grep("\\.csv$", f[basename(f) != "meta.csv"], value = TRUE), stringsAsFactors = FALSE, na.strings = "")
  direct <- api("indapi", list(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT"))
  expect_equal(csv$ELEVATION, direct$ELEVATION)
  expect_equal(csv$ADM1_NAME_ALT, direct$ADM1_NAME_ALT)
  skip_if_not_installed("haven")
  dta <- genFile("ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT", format = "dta", dir = d)
  t <- haven::read_dta(grep("\\.dta$", dta, value = TRUE))
  expect_equal(as.numeric(t$ELEVATION), as.numeric(direct$ELEVATION))
})

test_that("GeoJSON comes back as sf, rasters as SpatRaster, hist as the table with its files", {
  skip_without_server()
  skip_if_not_installed("sf")
  skip_if_not_installed("terra")
  d <- file.path(tempdir(), "formats")
  g <- indapi("ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT", format = "json", dir = d)
  expect_s3_class(g, "sf")
  direct <- api("indapi", list(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT"))
  expect_equal(sort(g$ELEVATION), sort(direct$ELEVATION[!is.na(direct$ADM1_NAME_ALT)]))
  r <- indapi("ELEVATION", iso3 = "KEN", format = "tif", dir = d)
  expect_s4_class(r, "SpatRaster")
  expect_equal(terra::crs(r, describe = TRUE)$code, "4326")
  h <- stats("ELEVATION", iso3 = "KEN")
  expect_equal(structure(plain(h), files = NULL), api("indapi", list(var = "ELEVATION", iso3 = "KEN")))
  expect_true(any(grepl("\\.png$", attr(h, "files"))))
})

test_that("the server's errors are conditions carrying its message", {
  skip_without_server()
  err <- tryCatch(indapi("NOPE", iso3 = "KEN"), error = function(e) e)
  expect_s3_class(err, "indapi3_http_400")
  expect_match(conditionMessage(err), "NOPE was not found", fixed = TRUE)
  expect_match(err$body, "In call:", fixed = TRUE)
})

test_that("ocpu_call returns the session: key, files, value, download", {
  skip_without_server()
  s <- ocpu_call("indapi", list(var = "ELEVATION", iso3 = "KEN", format = "csv"))
  expect_s3_class(s, "indapi3_session")
  expect_match(s$key, "^x[0-9a-f]+$")
  expect_true(any(grepl("^files/.*\\.csv$", s$files)))
  expect_equal(s$value(), grep("\\.csv$|\\.md$|\\.json$|DESCRIPTION|\\.html$", s$value(), value = TRUE))
  p <- s$download(file.path(tempdir(), "session"))
  expect_equal(basename(p), basename(s$files))
  expect_output(print(s), s$key, fixed = TRUE)
})

test_that("the disk cache answers a repeated call from disk, keyed by its arguments", {
  skip_without_server()
  d <- file.path(tempdir(), "cache-online")
  unlink(d, recursive = TRUE)
  old <- options(indapi3.cache = NULL, indapi3.server = indapi3_server(), indapi3.max_tries = NULL)
  on.exit(options(old))
  indapi3_cache(d)
  a <- getLayer("ELEVATION", iso3 = "KEN")
  expect_length(list.files(d), 1)
  b <- getLayer("ELEVATION", iso3 = "KEN")
  expect_identical(a, b)
  expect_length(list.files(d), 1)
  getLayer("ELEVATION", iso3 = "UGA")
  expect_length(list.files(d), 2)
  # the key holds the server: another server never reads these entries
  options(indapi3.server = "http://127.0.0.1:9/ocpu", indapi3.max_tries = 1)
  expect_error(getLayer("ELEVATION", iso3 = "KEN"), class = "indapi3_error")
})

test_that("async calls run as jobs: the same value, and a failed job is the call's error", {
  skip_without_server()
  s <- ocpu_call("getLayer", list(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT"), async = TRUE)
  expect_equal(s$value(), api("getLayer", list(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT")))
  old <- options(indapi3.async = TRUE)
  on.exit(options(old))
  expect_equal(plain(getLayer("ELEVATION", iso3 = "UGA")), api("getLayer", list(var = "ELEVATION", iso3 = "UGA")))
  err <- tryCatch(getLayer("NOPE", iso3 = "KEN"), error = function(e) e)
  expect_s3_class(err, "indapi3_http_400")
  expect_match(conditionMessage(err), "NOPE was not found", fixed = TRUE)
})
