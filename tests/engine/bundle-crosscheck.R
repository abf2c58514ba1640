# Independent computation on the real bundle (public/data) with R terra + data.table.
# Usage: Rscript tests/engine/bundle-crosscheck.R <bundle dir> <ISO3 value> <WKT> <ISO3 value of CPV> ; prints JSON.
# Sums of no non-missing value are NA (as terra zonal gives, and as the engine does), not R's 0.
suppressMessages({ library(terra); library(data.table); library(jsonlite) })
a <- commandArgs(TRUE); dir <- a[1]; isov <- as.integer(a[2]); cpv <- as.integer(a[4])
r <- function(code) rast(file.path(dir, "cog", paste0(code, ".tif")))
codes <- c("ISO3", "ADM1_CODE_ALT", "ELEVATION", "AREA_TOTAL", "AREA_LAND", "ELEV_ZONE", "PN14_POP", "PN14_LIFEEXP", "DIST_COAST")
s <- rast(lapply(codes, r)); names(s) <- codes
dt <- as.data.table(as.data.frame(s, cells = TRUE, na.rm = FALSE))[!is.na(ISO3)]
dominant <- function(x) { x <- x[!is.na(x)]; if (!length(x)) return(NA_integer_); t <- table(x); as.integer(names(t)[which.max(t)]) }
sumNA <- function(x) if (all(is.na(x))) NA_real_ else sum(x, na.rm = TRUE)
wm <- function(x, w) { ok <- !is.na(x) & !is.na(w) & w > 0; if (!any(ok)) NA_real_ else sum(x[ok] * w[ok]) / sum(w[ok]) }
vi <- fread(file.path(dir, "vi.csv"))
br <- as.numeric(strsplit(vi[varCode == "ELEVATION", classBreaks], "|", fixed = TRUE)[[1]])
out <- list()
agg <- quote(.(ELEVATION = wm(ELEVATION, AREA_TOTAL), AREA_LAND = sumNA(AREA_LAND), ELEV_ZONE = dominant(ELEV_ZONE),
  PN14_LIFEEXP = wm(PN14_LIFEEXP, PN14_POP), DIST_COAST = wm(DIST_COAST, AREA_LAND)))
out$country <- dt[ISO3 == isov, eval(agg)]
out$adm1 <- dt[ISO3 == isov & !is.na(ADM1_CODE_ALT), eval(agg), keyby = ADM1_CODE_ALT]
dt[, ELEV_INT := cut(ELEVATION, br)]
e <- dt[ISO3 == isov, eval(agg), keyby = ELEV_INT][!is.na(ELEV_INT)]
e[, ELEV_INT := as.character(ELEV_INT)]
out$intervals <- e
z <- zonal(r("PN14_POP"), r("ADM1_CODE_ALT"), fun = "sum", na.rm = TRUE)
out$pop_adm1 <- setNames(as.data.table(z), c("ADM1_CODE_ALT", "PN14_POP"))
v <- vect(a[3], crs = "EPSG:4326")
ex <- extract(c(r("AREA_LAND"), r("ELEVATION"), r("AREA_TOTAL"), r("ISO3")), v, exact = TRUE)
ex <- ex[!is.na(ex$ISO3), ]
out$wkt_exact <- list(area = sum(ex$AREA_LAND * ex$fraction, na.rm = TRUE), elev = wm(ex$ELEVATION, ex$AREA_TOTAL * ex$fraction))
ce <- extract(c(r("AREA_LAND"), r("ISO3")), v)
out$wkt_centre <- list(area = sum(ce$AREA_LAND[!is.na(ce$ISO3)], na.rm = TRUE), n = sum(!is.na(ce$ISO3)))
# national population: COG cell sums per country, and spData's world table (the bundle's source)
out$pop_iso <- dt[ISO3 %in% c(isov, cpv), .(PN14_POP = sumNA(PN14_POP), AREA_LAND = sumNA(AREA_LAND), n = .N), keyby = ISO3]
w <- as.data.frame(vect(system.file("shapes/world.gpkg", package = "spData")))
out$spdata_pop <- list(KEN = w$pop[w$iso_a2 %in% "KE"], CPV = w$pop[w$iso_a2 %in% "CV"])
cat(toJSON(out, digits = NA, auto_unbox = TRUE, na = "null"))
