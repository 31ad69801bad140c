// Filled by the test with the program `pulumi import --out` generates.
