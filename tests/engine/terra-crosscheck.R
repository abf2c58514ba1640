# Independent computation of the engine's summaries with R terra + data.table, on the
# same COGs. Usage: Rscript tests/engine/terra-crosscheck.R <bundle dir> ; prints JSON.
# Sums and weighted means as R gives them (sum of no non-missing value 0, weighted.mean).
suppressMessages({ library(terra); library(data.table); library(jsonlite) })
args <- commandArgs(TRUE)
dir <- args[1]
r <- function(code) rast(file.path(dir, "cog", paste0(code, ".tif")))
codes <- c("ISO3", "ADM1_CODE_ALT", "ELEVATION", "AREA_LAND", "TRI", "SLOPE", "DIST_COAST", "ELEV_ZONE")
s <- rast(lapply(codes, r)); names(s) <- codes
dt <- as.data.table(as.data.frame(s, cells = TRUE, na.rm = FALSE))
dt <- dt[!is.na(ISO3)]
dominant <- function(x) { x <- x[!is.na(x)]; if (!length(x)) return(NA_integer_); t <- table(x); as.integer(names(t)[which.max(t)]) }
sumR <- function(x) sum(x, na.rm = TRUE)
wmean <- function(x, w) weighted.mean(x, w, na.rm = TRUE)
out <- list()

# 1. by ADM1 over the whole region: terra::zonal for mean and sum, data.table for the rest
z_mean <- zonal(r("ELEVATION"), r("ADM1_CODE_ALT"), fun = "mean", na.rm = TRUE)
z_sum <- zonal(r("AREA_LAND"), r("ADM1_CODE_ALT"), fun = "sum", na.rm = TRUE)
a <- dt[!is.na(ADM1_CODE_ALT), .(TRI = wmean(TRI, AREA_LAND), SLOPE = median(SLOPE, na.rm = TRUE),
  DIST_COAST = min(DIST_COAST, na.rm = TRUE), ELEV_ZONE = dominant(ELEV_ZONE)), keyby = ADM1_CODE_ALT]
a <- merge(a, setNames(as.data.table(z_mean), c("ADM1_CODE_ALT", "ELEVATION")), by = "ADM1_CODE_ALT")
a <- merge(a, setNames(as.data.table(z_sum), c("ADM1_CODE_ALT", "AREA_LAND")), by = "ADM1_CODE_ALT")
out$adm1 <- a
out$region <- dt[, .(ELEVATION = mean(ELEVATION, na.rm = TRUE), AREA_LAND = sumR(AREA_LAND),
  TRI = wmean(TRI, AREA_LAND), SLOPE = median(SLOPE, na.rm = TRUE), DIST_COAST = min(DIST_COAST, na.rm = TRUE), ELEV_ZONE = dominant(ELEV_ZONE))]

# 2. one country by ADM1 x default ELEVATION intervals (R cut labels, default dig.lab = 3)
br <- as.numeric(strsplit(fread(file.path(dir, "vi.csv"))[varCode == "ELEVATION", classBreaks], "|", fixed = TRUE)[[1]])
b <- dt[ISO3 == 1, .(AREA_LAND = sumR(AREA_LAND), ELEVATION = mean(ELEVATION, na.rm = TRUE), ELEV_ZONE = dominant(ELEV_ZONE)),
  keyby = .(ADM1_CODE_ALT, ELEV_INT = cut(ELEVATION, br))]
b <- b[!is.na(ADM1_CODE_ALT) & !is.na(ELEV_INT)]
b[, ELEV_INT := as.character(ELEV_INT)]
out$intervals <- b
out$custom_labels <- levels(cut(0, c(0, 250.5, 1000, 25000), dig.lab = 6))

# 3. WKT selections and exact fractions
cell5m <- function(cells) { rc <- rowColFromCell(r("ISO3"), cells); (rc[, 1] - 1 + round((90 - ymax(r("ISO3"))) * 12)) * 4320 + (rc[, 2] - 1 + round((xmin(r("ISO3")) + 180) * 12)) }
wkts <- list(
  hole = "POLYGON ((31.02 1.9, 33.9 1.9, 33.9 -0.7, 31.02 -0.7, 31.02 1.9), (31.5 1.5, 32.5 1.5, 32.5 0.6, 31.5 0.6, 31.5 1.5))",
  small = "POLYGON ((32.31 0.51, 32.35 0.51, 32.35 0.54, 32.31 0.51))",
  tri = "POLYGON ((30.13 -1.2, 34.7 -0.33, 31.9 1.77, 30.13 -1.2))"
)
out$wkt <- lapply(wkts, function(w) {
  v <- vect(w, crs = "EPSG:4326")
  centre <- extract(r("ELEVATION"), v, cells = TRUE)
  touch <- extract(r("ELEVATION"), v, cells = TRUE, touches = TRUE)
  ex <- extract(c(r("ELEVATION"), r("AREA_LAND"), r("ISO3")), v, cells = TRUE, exact = TRUE)
  ex <- ex[!is.na(ex$ISO3) & ex$fraction > 0, ]
  list(centre = sort(cell5m(centre$cell)), touch = sort(cell5m(touch$cell)),
       exact = data.frame(CELL5M = cell5m(ex$cell), fraction = ex$fraction),
       exact_sum_area = sum(ex$AREA_LAND * ex$fraction, na.rm = TRUE),
       exact_mean_elev = sum(ex$ELEVATION * ex$fraction, na.rm = TRUE) / sum(ex$fraction[!is.na(ex$ELEVATION)]))
})
# rounding of R
out$round <- c(round(2.5), round(0.15, 1), round(1.005, 2), round(-1.25, 1), round(2675.5), round(0.285, 2))
cat(toJSON(out, digits = NA, auto_unbox = TRUE, na = "null"))
