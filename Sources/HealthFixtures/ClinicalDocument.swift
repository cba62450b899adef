import ExportParser

/// `export_cda.xml`: the HL7 CDA summary every export zip carries beside export.xml. The reader
/// must never take it for the export (docs/export-xml.md, "The zip"); a minimal valid document
/// is enough for that.
enum ClinicalDocument {
    static func xml(exportDate: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
             <realmCode code="US"/>
             <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>
             <title>Health Data Summary (synthetic fixture)</title>
             <effectiveTime value="\(exportDate)"/>
             <component><structuredBody/></component>
            </ClinicalDocument>

            """.utf8)
    }
}
