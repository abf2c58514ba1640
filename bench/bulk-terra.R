# The bulk benchmark's reference (bench/bulk.ts): terra::extract(exact = TRUE) of the same
# layers over the same polygons (and ISO3: the engine keeps only cells with a country), cold in a
# fresh process, and the coverage-weighted means (sum(value * fraction) / sum(fraction) per
# polygon, over cells with a country) for the answers' check.
# Usage: Rscript bench/bulk-terra.R <config.json> <answers.csv>; prints JSON {extract_ms, total_ms}.
suppressMessages({ library(terra); library(jsonlite); library(data.table) })
cfg <- fromJSON(commandArgs(TRUE)[1])
ms <- function(t0) (proc.time()[["elapsed"]] - t0) * 1000
t0 <- proc.time()[["elapsed"]]
v <- vect(cfg$polygons)
s <- rast(file.path(cfg$dir, "cog", paste0(c(cfg$layers, "ISO3"), ".tif")))
names(s) <- c(cfg$layers, "ISO3")
t1 <- proc.time()[["elapsed"]]
x <- extract(s, v, exact = TRUE)
extract_ms <- ms(t1)
d <- as.data.table(x)[!is.na(ISO3)]
num <- cfg$numeric
m <- d[, lapply(.SD, function(z) { ok <- !is.na(z); sum(z[ok] * fraction[ok]) / sum(fraction[ok]) }), by = ID, .SDcols = num]
total_ms <- ms(t0)
fwrite(m, commandArgs(TRUE)[2])
cat(toJSON(list(extract_ms = extract_ms, total_ms = total_ms, cells = nrow(d)), auto_unbox = TRUE), "\n")
