# R's side of tests/interop/zonal-stats.interop.test.ts: the zonal statistics on the bundle's own
# cells, one process for all. Usage: Rscript zonal-stats.R <config.json>; prints JSON.
# (a) per ADM1 unit of one country, whole cells: base quantile(type = 7), var(), weighted.mean(),
#     hist(), table(); cell areas by terra::cellSize(unit = "km").
# (b) per polygon, exact coverage: terra::extract(exact = TRUE) fractions f, Hmisc::wtd.var(x, f,
#     method = "ML"), Hmisc::wtd.quantile(x, f, q), weighted.mean(x, f * W).
suppressMessages({ library(terra); library(jsonlite); library(data.table); library(Hmisc) })
cfg <- fromJSON(commandArgs(TRUE)[1])
f <- function(code) rast(file.path(cfg$dir, "cog", paste0(code, ".tif")))
q <- cfg$q
edges <- cfg$edges
perZone <- function(x, w, cl, a, fr) {
  ok <- !is.na(x) & fr > 0
  xv <- x[ok]; fv <- fr[ok]
  m <- sum(fv * xv) / sum(fv)
  vml <- if (length(xv) > 1) wtd.var(xv, fv, method = "ML") else 0
  bw <- ok & !is.na(w)
  cok <- !is.na(cl) & fr > 0
  cw <- cok & !is.na(w)
  list(
    n = sum(fr[fr > 0]), count = sum(fv), mean = m,
    variance = vml, variance_plain = sum(fv * (xv - m)^2) / sum(fv),
    q7 = as.numeric(quantile(xv, q, type = 7, names = FALSE)),
    qw = as.numeric(wtd.quantile(xv, fv, probs = q, normwt = FALSE)),
    weighted_mean = weighted.mean(x[bw], fr[bw] * w[bw]), weighted_sum = sum(x[bw] * fr[bw] * w[bw]),
    variety = uniqueN(xv), class_variety = uniqueN(cl[cok]),
    valid_percent = 100 * sum(fv) / sum(fr[fr > 0]), nodata = sum(fr[!ok & fr > 0]),
    area_km2 = sum(fr[fr > 0] * a[fr > 0]),
    frac = as.list(tapply(fr[cok], cl[cok], sum) / sum(fr[cok])),
    weighted_frac = as.list(tapply(fr[cw] * w[cw], cl[cw], sum) / sum(fr[cw] * w[cw])),
    hist = as.numeric(tapply(fv, cut(xv, edges, right = TRUE, include.lowest = TRUE), sum, default = 0)),
    hist_plain = hist(xv, breaks = edges, plot = FALSE)$counts
  )
}
# (a) one country by ADM1, whole cells
e <- ext(cfg$bbox)
lay <- lapply(c("ISO3", "ADM1_CODE_ALT", cfg$var, cfg$weights, cfg$class), function(k) crop(f(k), e))
area <- cellSize(rast(lay[[3]]), unit = "km") # a template without values: no mask
d <- data.table(iso = values(lay[[1]])[, 1], z = values(lay[[2]])[, 1], x = values(lay[[3]])[, 1], w = values(lay[[4]])[, 1], cl = values(lay[[5]])[, 1], a = values(area)[, 1])
d <- d[!is.na(iso) & iso == cfg$isoValue & !is.na(z)]
units <- lapply(split(d, by = "z"), function(u) c(list(z = u$z[1]), perZone(u$x, u$w, u$cl, u$a, rep(1, nrow(u)))))
# (b) polygons, exact coverage
v <- vect(cfg$wkt, crs = "EPSG:4326")
s <- c(f("ISO3"), f(cfg$var), f(cfg$weights), f(cfg$class))
names(s) <- c("iso", "x", "w", "cl")
x <- as.data.table(extract(s, v, exact = TRUE, cells = TRUE))
x[, a := values(cellSize(rast(f(cfg$var)), unit = "km"))[cell, 1]]
x <- x[!is.na(iso)]
polys <- lapply(split(x, by = "ID"), function(p) c(list(ID = p$ID[1]), perZone(p$x, p$w, p$cl, p$a, p$fraction)))
cat(toJSON(list(units = unname(units), polys = unname(polys)), digits = NA, auto_unbox = TRUE))
