# Independent computation in R (data.table, terra) of what issue 12 asks the engine to do as R
# does: cut() labels, R's NA group of by intervals, several iso3 codes with regions, a code both
# var and by, a thin WKT sliver (exact coverage fractions), similar() on unrounded values with
# units missing an indicator left out, and queries by second-level units (ADM2).
# Usage: Rscript tests/engine/r-differences.R <input.json> ; prints JSON.
# input.json: { fixture, adm2, real (bundle dirs), breaks: [[...], ...], csv (engine CSV by ADM2) }
suppressMessages({ library(terra); library(data.table); library(jsonlite) })
inp <- fromJSON(commandArgs(TRUE)[1], simplifyVector = FALSE)
out <- list()
cogs <- function(dir, codes) {
  s <- rast(lapply(codes, function(k) rast(file.path(dir, "cog", paste0(k, ".tif")))))
  names(s) <- codes
  as.data.table(as.data.frame(s, cells = TRUE, na.rm = FALSE))
}
classes <- function(dir, code) fread(file.path(dir, "classes", paste0(code, ".csv")), colClasses = list(character = "label"))
cell5m <- function(dir, cells) {
  r <- rast(file.path(dir, "cog", "ISO3.tif"))
  rc <- rowColFromCell(r, cells)
  (rc[, 1] - 1 + round((90 - ymax(r)) * 12)) * 4320 + (rc[, 2] - 1 + round((xmin(r) + 180) * 12))
}
vi_breaks <- function(dir, code) as.numeric(strsplit(fread(file.path(dir, "vi.csv"))[varCode == code, classBreaks], "|", fixed = TRUE)[[1]])

# 1. cut() labels for every break set and dig.lab 1..12
out$labels <- lapply(inp$breaks, function(b) lapply(1:12, function(d) levels(cut(numeric(0), unlist(b), dig.lab = d))))

# 2. R's NA group: TZA by ELEVATION cut at breaks that do not cover the data (fixture bundle)
fx <- cogs(inp$fixture, c("ISO3", "ELEVATION", "AREA_LAND", "ADM1_CODE_ALT"))
fx <- fx[!is.na(ISO3)]
iso_fx <- classes(inp$fixture, "ISO3")
na <- fx[ISO3 == iso_fx[label == "TZA", value], .(AREA_LAND = sum(AREA_LAND, na.rm = TRUE), ELEVATION_mean = mean(ELEVATION, na.rm = TRUE), cells = .N),
  by = .(ELEV = cut(ELEVATION, c(500, 1000, 1500)))]
out$na <- list(groups = na[, .(ELEV = as.character(ELEV), AREA_LAND, ELEVATION_mean, cells)],
  total = fx[ISO3 == iso_fx[label == "TZA", value], sum(AREA_LAND, na.rm = TRUE)])

# 3. a code both var and by: data.table names the key as asked, the value keeps the code
br <- vi_breaks(inp$fixture, "ELEVATION")
out$same <- fx[ISO3 == iso_fx[label == "KEN", value], .(ELEVATION = mean(ELEVATION, na.rm = TRUE)), keyby = .(ELEVATION_by = cut(ELEVATION, br))][, ELEVATION_by := as.character(ELEVATION_by)]
out$same_total <- fx[ISO3 == iso_fx[label == "KEN", value], mean(ELEVATION, na.rm = TRUE)]
out$make_unique <- make.unique(c("ELEVATION", "ELEVATION"), sep = "_")

# 4. several iso3 codes (real bundle): each code's own sum of AREA_TOTAL, regions pooling members
rl <- cogs(inp$real, c("ISO3", "AREA_TOTAL"))
rl <- rl[!is.na(ISO3)]
iso_rl <- classes(inp$real, "ISO3")
rl[, code := iso_rl$label[match(ISO3, iso_rl$value)]]
isotab <- fread(file.path(inp$real, "iso.csv"))
out$iso <- setNames(lapply(c("KEN", "WAF", "EAF", "SSA"), function(k) {
  m <- strsplit(isotab[code == k, members], "|", fixed = TRUE)[[1]]
  list(AREA_TOTAL = rl[code %in% m, sum(AREA_TOTAL, na.rm = TRUE)], name = isotab[code == k, name])
}), c("KEN", "WAF", "EAF", "SSA"))

# 5. the sliver of issue 12 (real bundle): coverage fractions as terra::extract(exact = TRUE)
sliver <- "POLYGON((0.391667 13.553667, 1.191667 13.553667, 1.191667 13.563667, 0.391667 13.563667, 0.391667 13.553667))"
ex <- extract(c(rast(file.path(inp$real, "cog", "AREA_TOTAL.tif")), rast(file.path(inp$real, "cog", "ISO3.tif"))), vect(sliver, crs = "EPSG:4326"), exact = TRUE)
names(ex) <- c("ID", "AREA_TOTAL", "ISO3", "fraction")
ex <- as.data.table(ex)[!is.na(ISO3) & fraction > 0]
ex[, code := iso_rl$label[match(ISO3, iso_rl$value)]]
out$sliver <- ex[, .(AREA_TOTAL = sum(AREA_TOTAL * fraction), touched = sum(AREA_TOTAL)), keyby = code]

# 6. second-level units (ADM2 fixture bundle): keys from the class table, sums and means
a2 <- cogs(inp$adm2, c("ISO3", "ADM1_CODE_ALT", "ADM2_CODE_ALT", "ELEVATION", "AREA_LAND", "RAIN_FIX"))
a2 <- a2[!is.na(ISO3)]
t2 <- classes(inp$adm2, "ADM2_NAME_ALT")
by2 <- a2[, .(AREA_LAND = sum(AREA_LAND, na.rm = TRUE), ELEVATION = mean(ELEVATION, na.rm = TRUE), cells = .N), by = .(value = ADM2_CODE_ALT)]
by2 <- merge(by2, t2[, .(value, ADM2_NAME_ALT = label, ISO3 = iso3, ADM1_NAME_ALT = adm1)], by = "value", all.x = TRUE)
setorder(by2, ISO3, ADM1_NAME_ALT, ADM2_NAME_ALT, na.last = TRUE)
out$adm2 <- by2
out$adm2_csv <- fread(inp$csv, na.strings = "")

# 7. similar(): z-scores (R scale(): sample sd over the units ranked) on unrounded values;
#    units with a missing indicator are left out
simil <- function(d, ref, cols) {
  ok <- complete.cases(d[, ..cols])
  z <- scale(as.matrix(d[ok, ..cols]))
  r <- which(d[ok]$id == ref)
  list(id = d[ok]$id, score = rowSums(abs(sweep(z, 2, z[r, ]))), left_out = sum(!ok))
}
u1 <- a2[!is.na(ADM1_CODE_ALT), .(RAIN_FIX = mean(RAIN_FIX, na.rm = TRUE), ELEVATION = mean(ELEVATION, na.rm = TRUE)), by = .(id = ADM1_CODE_ALT)]
u1[is.nan(RAIN_FIX), RAIN_FIX := NA]
out$similar1 <- simil(u1, 101, c("RAIN_FIX", "ELEVATION"))
u2 <- a2[!is.na(ADM2_CODE_ALT), .(RAIN_FIX = mean(RAIN_FIX, na.rm = TRUE), ELEVATION = mean(ELEVATION, na.rm = TRUE)), by = .(id = ADM2_CODE_ALT)]
u2[is.nan(RAIN_FIX), RAIN_FIX := NA]
out$similar2 <- simil(u2, 1011, c("RAIN_FIX", "ELEVATION"))
c0 <- a2[ISO3 == iso_fx[label == "UGA", value], .(id = cell5m(inp$adm2, cell), RAIN_FIX, ELEVATION)]
out$similar0 <- simil(c0, c0$id[100], c("RAIN_FIX", "ELEVATION"))
out$similar0_ref <- c0$id[100]
# units of the real bundle none of whose cells has a value of an indicator (R's sum() gives 0 there)
ra <- cogs(inp$real, c("ISO3", "ADM1_CODE_ALT", "PN14_POP", "ELEVATION"))[!is.na(ISO3) & !is.na(ADM1_CODE_ALT)]
ua <- ra[, .(pop = any(!is.na(PN14_POP)), elev = any(!is.na(ELEVATION)), pop_sum = sum(PN14_POP, na.rm = TRUE)), by = ADM1_CODE_ALT]
out$similar_real <- list(units = nrow(ua), left_out = ua[, sum(!(pop & elev))], no_pop = ua[, sum(!pop)], no_elev = ua[, sum(!elev)],
  no_pop_sum = ua[pop == FALSE, unique(pop_sum)])
cat(toJSON(out, digits = NA, auto_unbox = TRUE, na = "null"))
