# The engine benchmark's in-memory reference (issue 26 target 5): the whole region x ADM1 query
# with data.table on the same cells (read from the bundle's COGs with terra, as bench/terra.R
# does), each variable summarised per ADM1 unit with its catalog formula as R evaluates it
# (weighted.mean(x, w, na.rm = TRUE) or sum(x, na.rm = TRUE)).
# Usage: Rscript bench/datatable.R <config.json> <answers.csv>
# Prints JSON {cold_ms, warm_ms, warm_cpu_ms, groups}: cold = reading the layers into a data.table
# and the first summary; warm = median of 9 summaries of the table in memory (elapsed), warm_cpu_ms
# 9 more summaries' mean CPU time (user + system: what a busy machine does not stretch). Writes the answers of
# the last run (one row per ADM1 raster value, NA = cells without a unit) to <answers.csv>.
suppressMessages({ library(terra); library(data.table); library(jsonlite) })
args <- commandArgs(TRUE)
cfg <- fromJSON(args[1], simplifyVector = FALSE)
f <- function(code) file.path(cfg$dir, "cog", paste0(code, ".tif"))
ms <- function(expr) { t <- proc.time()[["elapsed"]]; force(expr); (proc.time()[["elapsed"]] - t) * 1000 }
codes <- unique(unlist(lapply(cfg$vars, function(v) c(v$code, v$weight))))
setDTthreads(1) # the engine runs on one thread
load <- function() {
  cols <- lapply(c("ISO3", "ADM1_CODE_ALT", codes), function(code) values(rast(f(code)), mat = FALSE))
  names(cols) <- c("ISO3", "ADM1_CODE_ALT", codes)
  dt <- as.data.table(cols)
  dt[ISO3 %in% unlist(cfg$isoValues)]
}
summarise <- function(dt) {
  ex <- lapply(cfg$vars, function(v) {
    if (v$fn == "weighted.mean") call("weighted.mean", as.name(v$code), as.name(v$weight), na.rm = TRUE)
    else call(v$fn, as.name(v$code), na.rm = TRUE)
  })
  names(ex) <- vapply(cfg$vars, function(v) v$code, "")
  dt[, eval(as.call(c(as.name("list"), ex))), by = ADM1_CODE_ALT]
}
dt <- NULL; res <- NULL
cold <- ms({ dt <- load(); res <- summarise(dt) })
cpu <- function(expr) { t <- proc.time(); force(expr); d <- proc.time() - t; (d[["user.self"]] + d[["sys.self"]]) * 1000 }
warm <- median(sapply(1:9, function(i) ms(res <<- summarise(dt))))
warm_cpu <- cpu(for (i in 1:9) res <- summarise(dt)) / 9 # the mean: R counts CPU time in 10 ms ticks
out <- res[, lapply(.SD, function(x) sprintf("%.17g", x))] # every double exactly (fwrite keeps 15 digits)
fwrite(out, args[2], quote = FALSE, na = "NA")
cat(toJSON(list(cold_ms = cold, warm_ms = warm, warm_cpu_ms = warm_cpu, groups = nrow(res), cells = nrow(dt)), auto_unbox = TRUE, digits = 6))
