# Writes .dta and .rds copies of a CELL5M fixture table (tests/ingest/dta-rds.interop.test.ts).
# Usage: Rscript make-dta-rds.R <table.csv> <out-folder>
# Made-up fixture values, as in the input table.
suppressPackageStartupMessages({ library(data.table); library(haven) })
args <- commandArgs(trailingOnly = TRUE)
dt <- fread(args[1], encoding = "UTF-8")
out <- args[2]
df <- as.data.frame(dt)
f <- function(name) file.path(out, name)
# haven::write_dta rejects one-letter names (X, Y) for versions < 14 (its name check needs two
# characters, Stata does not); its writer is called directly for those, as write_dta would.
dta <- function(d, path, version, strl_threshold = 2045) {
  if (version >= 14) return(write_dta(d, path, version = version, strl_threshold = strl_threshold))
  haven:::write_dta_(d, normalizePath(path, mustWork = FALSE), version = haven:::stata_file_format(version), label = NULL, strl_threshold = strl_threshold)
}

# Stata: 117 (Stata 13), 118 (14), 119 (15, more variables allowed), 114 (10), strL, labels, tagged missing.
dta(df, f("v117.dta"), 13)
write_dta(df, f("v118.dta"), version = 14)
write_dta(df, f("v119.dta"), version = 15)
dta(df, f("v114.dta"), 10)
dta(df, f("v115.dta"), 12)
write_dta(df, f("strl118.dta"), version = 14, strl_threshold = 4)
dta(df, f("strl117.dta"), 13, strl_threshold = 4)
lab <- df
aez <- sort(unique(lab$AEZ_FIX[lab$AEZ_FIX != ""]))
lab$AEZ_FIX <- labelled(ifelse(lab$AEZ_FIX == "", NA_integer_, match(lab$AEZ_FIX, aez) * 10L), setNames(seq_along(aez) * 10L, aez))
lab$SOIL_FIX <- labelled(lab$SOIL_FIX, c(Sandy = 1L, Loamy = 2L, Clay = 5L))
lab$PROD_FIX <- ifelse(is.na(lab$PROD_FIX), tagged_na("a"), lab$PROD_FIX)
write_dta(lab, f("labels118.dta"), version = 14)

# R: data.frame and data.table, versions 2 and 3, gzip / none / bzip2 / xz, a factor, an ALTREP wrapper.
saveRDS(df, f("df3.rds"))
saveRDS(df, f("df2.rds"), version = 2)
saveRDS(df, f("df3-plain.rds"), compress = FALSE)
saveRDS(dt, f("dt3.rds"))
saveRDS(dt, f("dt2.rds"), version = 2, compress = "gzip")
fac <- df
fac$AEZ_FIX <- factor(ifelse(fac$AEZ_FIX == "", NA, fac$AEZ_FIX))
fac$X <- .Internal(wrap_meta(fac$X, 0L, 0L))
saveRDS(fac, f("factor-wrap3.rds"))
saveRDS(df, f("df3.bz2.rds"), compress = "bzip2")
saveRDS(df, f("df3.xz.rds"), compress = "xz")
# Not tables: a vector, and a list that is no data.frame.
saveRDS(1:10, f("vector.rds"))
saveRDS(list(a = 1, b = "x"), f("list.rds"))
# ALTREP forms in columns: a compact integer sequence, a deferred string, native little-endian bytes.
alt <- structure(list(id = 1:5, s = as.character(11:15), d = c(1.5, NA, 3, 4, 5), s2 = as.character(c(0.1, 2, NA, 1e6, 1/3))),
  class = "data.frame", row.names = c(NA, -5L))
saveRDS(alt, f("altrep3.rds"))
con <- file(f("altrep3-native.rds"), "wb"); serialize(alt, con, xdr = FALSE); close(con)
