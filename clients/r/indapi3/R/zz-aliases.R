# The hcapi3 package's names for the same methods. (Nothing runs when the package is loaded:
# no network use at load.)

hcapi <- indapi

indicator <- describe

stats <- function(var, iso3 = "SSA", by = NULL) {
  indapi(var = var, iso3 = iso3, by = by, format = "hist")
}
