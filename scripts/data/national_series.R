# National series of the bundle (public/data/series/national.csv): yearly values per country
# (admin-0, ISO3) of Africa south of the Sahara, read from Debian packages only:
#  - Penn World Table 9.1 (r-cran-pwt9, object pwt9.1): PWT_POP = pop (millions of people),
#    PWT_RGDPE_PC = rgdpe / pop (expenditure-side real GDP, 2011 US$ PPP, per person),
#    PWT_HC = hc (human capital index);
#  - Gapminder (r-cran-dslabs, object gapminder; country names matched to ISO3 below):
#    GM_LIFE_EXP = life_expectancy (years), GM_INFANT_MORT = infant_mortality (per 1,000 births);
#  - World Bank WDI total fertility rate (python3-statsmodels, statsmodels/datasets/fertility/
#    fertility.csv, ISO3 given): WDI_TFR (births per woman).
# Rows with no value in the source are left out (a query gives NA, never an interpolated value).
# Usage: Rscript scripts/data/national_series.R [bundle dir, default public/data]
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[1] else "public/data"
suppressPackageStartupMessages({ library(pwt9); library(dslabs) })
iso <- read.csv(file.path(out, "iso.csv"), stringsAsFactors = FALSE)
ssa <- iso$code[iso$type == "country"]

rows <- list()
add <- function(series, iso3, year, value, source) {
  keep <- iso3 %in% ssa & !is.na(value) & is.finite(value)
  if (!any(keep)) return(invisible())
  rows[[length(rows) + 1]] <<- data.frame(series = series, ISO3 = iso3[keep], year = as.integer(year[keep]),
                                          value = value[keep], source = source, stringsAsFactors = FALSE)
}
p <- pwt9.1
p$isocode <- as.character(p$isocode)
add("PWT_POP", p$isocode, p$year, p$pop, "PWT91")
add("PWT_RGDPE_PC", p$isocode, p$year, p$rgdpe / p$pop, "PWT91")
add("PWT_HC", p$isocode, p$year, p$hc, "PWT91")

g <- gapminder
names_iso <- c(setNames(iso$code, iso$name),
  "Cape Verde" = "CPV", "Congo, Dem. Rep." = "COD", "Congo, Rep." = "COG", "Cote d'Ivoire" = "CIV",
  "Swaziland" = "SWZ", "Tanzania" = "TZA")
g_iso <- unname(names_iso[as.character(g$country)])
g_iso[is.na(g_iso)] <- ""
add("GM_LIFE_EXP", g_iso, g$year, g$life_expectancy, "GAPMINDER")
add("GM_INFANT_MORT", g_iso, g$year, g$infant_mortality, "GAPMINDER")

f <- read.csv("/usr/lib/python3/dist-packages/statsmodels/datasets/fertility/fertility.csv", check.names = FALSE, stringsAsFactors = FALSE)
yrs <- grep("^[0-9]{4}$", names(f), value = TRUE)
for (y in yrs) add("WDI_TFR", f[["Country Code"]], rep(as.integer(y), nrow(f)), suppressWarnings(as.numeric(f[[y]])), "WDI")

d <- do.call(rbind, rows)
d <- d[order(d$series, d$ISO3, d$year), ]
dir.create(file.path(out, "series"), showWarnings = FALSE)
# 15 significant digits: the double as R prints it with digits = 15 (what the interop tests compare at 1e-9 relative)
d$value <- formatC(d$value, digits = 15, format = "g")
d$value <- trimws(d$value)
write.csv(d, file.path(out, "series", "national.csv"), row.names = FALSE, quote = FALSE)
cat(sprintf("series/national.csv: %d rows, %d series, years %d-%d\n", nrow(d), length(unique(d$series)), min(d$year), max(d$year)))
for (s in unique(d$series)) cat(sprintf("  %s: %d countries, %d-%d, %d values\n", s, length(unique(d$ISO3[d$series == s])),
  min(d$year[d$series == s]), max(d$year[d$series == s]), sum(d$series == s)))

# The sources a value's `source` names: what it is, its licence and citation.
src <- data.frame(
  source = c("PWT91", "GAPMINDER", "WDI"),
  name = c("Penn World Table 9.1 (R package pwt9 9.1.0, Debian r-cran-pwt9, object pwt9.1)",
           sprintf("Gapminder via the R package dslabs %s (Debian r-cran-dslabs, object gapminder)", packageVersion("dslabs")),
           "World Bank World Development Indicators, SP.DYN.TFRT.IN (statsmodels 0.13 dataset fertility, Debian python3-statsmodels)"),
  license = c("CC-BY-4.0", "CC-BY-4.0 (Gapminder data); dslabs package Artistic-2.0", "CC-BY-4.0 (World Bank terms of use)"),
  citation = c("Feenstra, Robert C., Robert Inklaar and Marcel P. Timmer (2015). The Next Generation of the Penn World Table. American Economic Review 105(10), 3150-3182. www.ggdc.net/pwt",
               "Gapminder Foundation, www.gapminder.org/data; Irizarry R.A., Gill A. (2021). dslabs: Data Science Labs. R package.",
               "World Bank (2013). World Development Indicators: Fertility rate, total (births per woman), SP.DYN.TFRT.IN. data.worldbank.org"),
  stringsAsFactors = FALSE)
write.csv(src, file.path(out, "series", "sources.csv"), row.names = FALSE)

# The catalog records of the series (series/vi.csv: vi.csv's columns plus `series`). Values are
# national: on the grid every cell of a country carries its country's value ("national value, no
# variation within the country"); `mean(...)` over one country's cells is that value, over several
# countries the mean of their values weighted by their numbers of cells.
span <- function(s) range(d$year[d$series == s])
rec <- function(code, label, title, desc, unit, dec, breaks, src_key, cat2) {
  yr <- span(code); s <- src[src$source == src_key, ]
  data.frame(varCode = code, varLabel = label, varTitle = title,
    varDesc = paste0(desc, " National value, no variation within the country: on the grid every cell of a country carries the country's value of the year, so the mean over a country's cells is the national value and over several countries the mean of their values weighted by their numbers of cells. A country or year the source does not give has no value (NA); nothing is interpolated. Yearly series: ask with `year` (", yr[1], "-", yr[2], "; default the latest)."),
    unit = unit, type = "continuous", dec = dec, aggFunR = sprintf("mean(%s, na.rm=TRUE)", code),
    classBreaks = paste(breaks, collapse = "|"),
    classLabels = paste(sprintf("%s - %s", head(breaks, -1), tail(breaks, -1)), collapse = "|"),
    classColors = paste(head(c("#f7fbff", "#c6dbef", "#6baed6", "#2171b5", "#08306b", "#041a40"), length(breaks) - 1), collapse = "|"),
    cat1 = "National series", cat2 = cat2, cat3 = label, year = yr[1], yearEnd = yr[2],
    sources = s$name, sourceMini = src_key, owner = "indapi3 project (scripts/data/national_series.R)",
    citation = s$citation, license = s$license, version = "1.0", published = "2026-11-29",
    dataType = "national", noData = "", classTable = "", series = code, stringsAsFactors = FALSE)
}
recs <- rbind(
  rec("PWT_POP", "Population (PWT 9.1)", "Population, millions of people (Penn World Table 9.1)", "Population in millions of people, PWT 9.1 variable pop.", "million people", 3, c(0, 1, 5, 20, 50, 250), "PWT91", "Population"),
  rec("PWT_RGDPE_PC", "GDP per person (PWT 9.1)", "Expenditure-side real GDP per person, 2011 US$ PPP (Penn World Table 9.1)", "Expenditure-side real GDP at chained PPPs (PWT 9.1 rgdpe, million 2011 US$) divided by population (pop, millions): 2011 US$ PPP per person.", "2011 US$ PPP per person", 0, c(0, 1000, 2000, 5000, 10000, 100000), "PWT91", "Economy"),
  rec("PWT_HC", "Human capital index (PWT 9.1)", "Human capital index (Penn World Table 9.1)", "Human capital index based on years of schooling and returns to education, PWT 9.1 variable hc.", "index", 3, c(1, 1.25, 1.5, 2, 2.5, 4), "PWT91", "Education"),
  rec("GM_LIFE_EXP", "Life expectancy (Gapminder)", "Life expectancy at birth, years (Gapminder)", "Life expectancy at birth in years, Gapminder via dslabs gapminder$life_expectancy; countries matched to ISO3 by name.", "years", 2, c(0, 40, 50, 60, 70, 90), "GAPMINDER", "Health"),
  rec("GM_INFANT_MORT", "Infant mortality (Gapminder)", "Infant mortality, deaths per 1,000 births (Gapminder)", "Infant deaths (under one year) per 1,000 live births, Gapminder via dslabs gapminder$infant_mortality; countries matched to ISO3 by name.", "per 1,000 births", 1, c(0, 25, 50, 100, 150, 300), "GAPMINDER", "Health"),
  rec("WDI_TFR", "Total fertility rate (WDI)", "Total fertility rate, births per woman (World Bank WDI)", "Births per woman, World Bank WDI SP.DYN.TFRT.IN as shipped in statsmodels' fertility dataset.", "births per woman", 2, c(0, 2, 3, 4, 5, 6, 9), "WDI", "Population"))
write.csv(recs, file.path(out, "series", "vi.csv"), row.names = FALSE, na = "")
