import ExportParser
print("health-import")
