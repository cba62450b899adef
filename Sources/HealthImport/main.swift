import ArgumentParser

HealthImport.main()
