# The catalog's aggregation formulas (vi.csv aggFunR) evaluated by R itself with data.table,
# per first-level unit, per country and over the whole fixture (tests/engine/fixtures/
# bundle-formula, made-up values). Usage: Rscript tests/engine/formula-crosscheck.R <bundle dir>
# ; prints JSON: for each record F*/FC/FD the value of eval(parse(text = aggFunR)) per group.
suppressMessages({ library(terra); library(data.table); library(jsonlite) })
dir <- commandArgs(TRUE)[1]
vi <- fread(file.path(dir, "vi.csv"))
recs <- vi[grepl("^F[0-9]{2}$|^FC$|^FD$", varCode)]
codes <- c("ISO3", "ADM1_CODE_ALT", "FA", "FW", "FB", "FN", "FC", "FD")
s <- rast(lapply(codes, function(k) rast(file.path(dir, "cog", paste0(k, ".tif")))))
names(s) <- codes
dt <- as.data.table(as.data.frame(s, na.rm = FALSE))[!is.na(ISO3)]
# the catalog's dominant(): the most frequent class, ties to the smallest (first in table order)
dominant <- function(x) names(sort(table(x), decreasing = TRUE)[1])
num <- function(v) if (is.character(v)) v else if (is.na(v) || !is.finite(v)) NA else v
by_group <- function(f, by) {
  e <- parse(text = f)[[1]]
  r <- if (is.null(by)) dt[, .(v = eval(e))] else dt[, .(v = eval(e)), keyby = by]
  r[, v := lapply(v, num)]
  r
}
out <- suppressWarnings(lapply(setNames(recs$aggFunR, recs$varCode), function(f) list(
  formula = f,
  adm1 = by_group(f, "ADM1_CODE_ALT"),
  iso = by_group(f, "ISO3"),
  all = by_group(f, NULL)$v[[1]]
)))
cat(toJSON(out, digits = NA, auto_unbox = TRUE, na = "null"))
