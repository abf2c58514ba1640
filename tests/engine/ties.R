# Grouped weighted means on rounding ties, by R itself: the catalog's formulas (vi.csv aggFunR)
# evaluated per ADM2 unit, per ADM1 unit and over the whole table with data.table on the
# generated tie table (tests/ingest/fixtures/islands.fixture.ts tieTable: made-up values),
# then R's round(, dec). Also R's round() of given numbers (R >= 4 algorithm).
# Usage: Rscript tests/engine/ties.R <table.csv> <vi.csv> <numbers.json> ; prints JSON.
suppressMessages({ library(data.table); library(jsonlite) })
a <- commandArgs(TRUE)
dt <- fread(a[1], encoding = "UTF-8", na.strings = "")
vi <- fread(a[2], encoding = "UTF-8", colClasses = "character")
nums <- fromJSON(a[3])
out <- list()
for (k in which(vi$varCode %in% c("RAIN_FIX", "WM_FIX"))) {
  f <- parse(text = vi$aggFunR[k])[[1]]
  d <- as.integer(vi$dec[k])
  g <- function(by) {
    r <- if (is.null(by)) dt[, .(v = eval(f))] else dt[, .(v = eval(f)), by = by]
    r[, r := round(v, d)]
    r
  }
  out[[vi$varCode[k]]] <- list(adm2 = g(c("ADM1_NAME_ALT", "ADM2_NAME_ALT")), adm1 = g("ADM1_NAME_ALT"), all = g(NULL))
}
out$round <- lapply(seq_along(nums$x), function(i) round(nums$x[i], nums$d[i]))
cat(toJSON(out, digits = NA, auto_unbox = TRUE, na = "null"))
