# The benchmark's reference: the same summaries with R terra on the same COGs.
# Usage: Rscript bench/terra.R <config.json> [case]; each case runs cold in a fresh process; prints JSON {case: {cold_ms, warm_ms}}.
suppressMessages({ library(terra); library(jsonlite) })
cfg <- fromJSON(commandArgs(TRUE)[1], simplifyVector = FALSE)
dir <- cfg$dir
f <- function(code) file.path(dir, "cog", paste0(code, ".tif"))
ms <- function(expr) { t <- proc.time()[["elapsed"]]; force(expr); (proc.time()[["elapsed"]] - t) * 1000 }
summ <- function(x, zone, fn, w = NULL) {
  if (fn == "weighted.mean") {
    ww <- ifel(w > 0 & !is.na(x), w, NA)
    a <- zonal(x * ww, zone, fun = "sum", na.rm = TRUE); b <- zonal(ww, zone, fun = "sum", na.rm = TRUE)
    a[, 2] <- a[, 2] / b[, 2]; a
  } else zonal(x, zone, fun = fn, na.rm = TRUE)
}
region <- function() {
  z <- rast(f("ADM1_CODE_ALT"))
  lapply(cfg$vars, function(v) summ(rast(f(v$code)), z, v$fn, if (!is.null(v$weight)) rast(f(v$weight))))
}
country <- function() {
  e <- ext(unlist(cfg$country$bbox))
  iso <- crop(rast(f("ISO3")), e)
  z <- crop(rast(f("ADM1_CODE_ALT")), e)
  el <- crop(rast(f("ELEVATION")), e)
  br <- unlist(cfg$breaks)
  k <- classify(el, cbind(br[-length(br)], br[-1], seq_along(br[-1])), right = TRUE, others = NA)
  zone <- mask(z * 100 + k, iso, maskvalues = cfg$country$value, inverse = TRUE)
  lapply(cfg$vars, function(v) summ(crop(rast(f(v$code)), e), zone, v$fn, if (!is.null(v$weight)) crop(rast(f(v$weight)), e)))
}
poly <- function(exact) {
  s <- rast(lapply(cfg$vars, function(v) rast(f(v$code))))
  x <- extract(s, vect(cfg$wkt, crs = "EPSG:4326"), exact = exact)
  fr <- if (exact) x$fraction else rep(1, nrow(x))
  lapply(seq_along(cfg$vars), function(i) { v <- x[[i + 1]]; ok <- !is.na(v); if (cfg$vars[[i]]$fn == "sum") sum(v[ok] * fr[ok]) else sum(v[ok] * fr[ok]) / sum(fr[ok]) })
}
cases <- list(region = region, country = country, polygon = function() poly(FALSE), polygon_exact = function() poly(TRUE))
only <- commandArgs(TRUE)[2]
if (!is.na(only)) cases <- cases[only]
out <- lapply(cases, function(fun) {
  cold <- ms(fun())
  warm <- median(sapply(1:5, function(i) ms(fun())))
  list(cold_ms = cold, warm_ms = warm)
})
cat(toJSON(out, auto_unbox = TRUE, digits = 6))
