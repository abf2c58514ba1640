library(testthat)
library(indapi3)
test_check("indapi3")
