# Independent computation on the real bundle (public/data) with R terra + data.table.
# Usage: Rscript tests/engine/bundle-crosscheck.R <bundle dir> <ISO3 value> <WKT> <ISO3 value of CPV> ; prints JSON.
# The catalog's own formulas (vi.csv aggFunR) are evaluated by R itself per group, so sums of
# no non-missing value are R's 0 (terra zonal gives NA there).
suppressMessages({ library(terra); library(data.table); library(jsonlite) })
a <- commandArgs(TRUE); dir <- a[1]; isov <- as.integer(a[2]); cpv <- as.integer(a[4])
r <- function(code) rast(file.path(dir, "cog", paste0(code, ".tif")))
codes <- c("ISO3", "ADM1_CODE_ALT", "ELEVATION", "AREA_TOTAL", "AREA_LAND", "ELEV_ZONE", "PN14_POP", "PN14_LIFEEXP", "DIST_COAST")
s <- rast(lapply(codes, r)); names(s) <- codes
dt <- as.data.table(as.data.frame(s, cells = TRUE, na.rm = FALSE))[!is.na(ISO3)]
dominant <- function(x) { x <- x[!is.na(x)]; if (!length(x)) return(NA_integer_); t <- table(x); as.integer(names(t)[which.max(t)]) }
vi <- fread(file.path(dir, "vi.csv"))
br <- as.numeric(strsplit(vi[varCode == "ELEVATION", classBreaks], "|", fixed = TRUE)[[1]])
out <- list()
vars <- c("ELEVATION", "AREA_LAND", "ELEV_ZONE", "PN14_LIFEEXP", "DIST_COAST")
agg <- parse(text = paste0(".(", paste0(vars, " = ", vi[match(vars, varCode), aggFunR], collapse = ", "), ")"))[[1]]
out$country <- dt[ISO3 == isov, eval(agg)]
out$adm1 <- dt[ISO3 == isov & !is.na(ADM1_CODE_ALT), eval(agg), keyby = ADM1_CODE_ALT]
dt[, ELEV_INT := cut(ELEVATION, br)]
e <- dt[ISO3 == isov, eval(agg), keyby = ELEV_INT][!is.na(ELEV_INT)]
e[, ELEV_INT := as.character(ELEV_INT)]
out$intervals <- e
z <- zonal(r("PN14_POP"), r("ADM1_CODE_ALT"), fun = "sum", na.rm = TRUE)
out$pop_adm1 <- merge(setNames(as.data.table(z), c("ADM1_CODE_ALT", "PN14_POP_terra")),
  dt[!is.na(ADM1_CODE_ALT), .(PN14_POP = sum(PN14_POP, na.rm = TRUE)), keyby = ADM1_CODE_ALT], by = "ADM1_CODE_ALT")
# issue 12: R's weighted.mean over EAF is NA (Eritrea has a life expectancy but no population);
# the catalog's formula is the population-weighted mean over the cells with both
isotab <- fread(file.path(dir, "iso.csv")); isocl <- fread(file.path(dir, "classes", "ISO3.csv"))
eaf <- isocl[label %in% strsplit(isotab[code == "EAF", members], "|", fixed = TRUE)[[1]], value]
out$eaf <- list(weighted_mean = dt[ISO3 %in% eaf, weighted.mean(PN14_LIFEEXP, PN14_POP, na.rm = TRUE)],
  formula = dt[ISO3 %in% eaf, eval(parse(text = vi[varCode == "PN14_LIFEEXP", aggFunR]))],
  eri = dt[ISO3 == isocl[label == "ERI", value], eval(parse(text = vi[varCode == "PN14_LIFEEXP", aggFunR]))])
v <- vect(a[3], crs = "EPSG:4326")
ex <- extract(c(r("AREA_LAND"), r("ELEVATION"), r("AREA_TOTAL"), r("ISO3")), v, exact = TRUE)
ex <- ex[!is.na(ex$ISO3), ]
out$wkt_exact <- list(area = sum(ex$AREA_LAND * ex$fraction, na.rm = TRUE), elev = weighted.mean(ex$ELEVATION, ex$AREA_TOTAL * ex$fraction, na.rm = TRUE))
ce <- extract(c(r("AREA_LAND"), r("ISO3")), v)
out$wkt_centre <- list(area = sum(ce$AREA_LAND[!is.na(ce$ISO3)], na.rm = TRUE), n = sum(!is.na(ce$ISO3)))
# national population: COG cell sums per country, and spData's world table (the bundle's source)
out$pop_iso <- dt[ISO3 %in% c(isov, cpv), .(PN14_POP = sum(PN14_POP, na.rm = TRUE), AREA_LAND = sum(AREA_LAND, na.rm = TRUE), n = .N), keyby = ISO3]
w <- as.data.frame(vect(system.file("shapes/world.gpkg", package = "spData")))
out$spdata_pop <- list(KEN = w$pop[w$iso_a2 %in% "KE"], CPV = w$pop[w$iso_a2 %in% "CV"])
cat(toJSON(out, digits = NA, auto_unbox = TRUE, na = "null"))
