import ExportParser
import Foundation

/// The prolog every Health app export starts with: the XML declaration and the internal DTD
/// subset of Export Version 13 (as in `samples/export.xml`). The reader strips it before parsing
/// (docs/export-xml.md, "Before the parser sees a byte"); a fixture carries it because real
/// files do.
enum ExportDTD {
    static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    static let current = """
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED
          HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED
          HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
        <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
        <!ATTLIST InstantaneousBeatsPerMinute
          bpm  CDATA #REQUIRED
          time CDATA #REQUIRED
        >
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ATTLIST Correlation
          type          CDATA #REQUIRED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
        <!ATTLIST Workout
          workoutActivityType   CDATA #REQUIRED
          duration              CDATA #IMPLIED
          durationUnit          CDATA #IMPLIED
          totalDistance         CDATA #IMPLIED
          totalDistanceUnit     CDATA #IMPLIED
          totalEnergyBurned     CDATA #IMPLIED
          totalEnergyBurnedUnit CDATA #IMPLIED
          sourceName            CDATA #REQUIRED
          sourceVersion         CDATA #IMPLIED
          device                CDATA #IMPLIED
          creationDate          CDATA #IMPLIED
          startDate             CDATA #REQUIRED
          endDate               CDATA #REQUIRED
        >
        <!ELEMENT WorkoutActivity ((MetadataEntry|WorkoutEvent|WorkoutStatistics)*)>
        <!ATTLIST WorkoutActivity
          uuid         CDATA #REQUIRED
          startDate    CDATA #REQUIRED
          endDate      CDATA #IMPLIED
          duration     CDATA #IMPLIED
          durationUnit CDATA #IMPLIED
        >
        <!ELEMENT WorkoutEvent (MetadataEntry?)>
        <!ATTLIST WorkoutEvent
          type         CDATA #REQUIRED
          date         CDATA #REQUIRED
          duration     CDATA #IMPLIED
          durationUnit CDATA #IMPLIED
        >
        <!ELEMENT WorkoutStatistics EMPTY>
        <!ATTLIST WorkoutStatistics
          type      CDATA #REQUIRED
          startDate CDATA #REQUIRED
          endDate   CDATA #REQUIRED
          average   CDATA #IMPLIED
          minimum   CDATA #IMPLIED
          maximum   CDATA #IMPLIED
          sum       CDATA #IMPLIED
          unit      CDATA #IMPLIED
        >
        <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
        <!ATTLIST WorkoutRoute
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT FileReference EMPTY>
        <!ATTLIST FileReference
          path CDATA #REQUIRED
        >
        <!ELEMENT ActivitySummary EMPTY>
        <!ATTLIST ActivitySummary
          dateComponents           CDATA #IMPLIED
          activeEnergyBurned       CDATA #IMPLIED
          activeEnergyBurnedGoal   CDATA #IMPLIED
          activeEnergyBurnedUnit   CDATA #IMPLIED
          appleMoveTime            CDATA #IMPLIED
          appleMoveTimeGoal        CDATA #IMPLIED
          appleExerciseTime        CDATA #IMPLIED
          appleExerciseTimeGoal    CDATA #IMPLIED
          appleStandHours          CDATA #IMPLIED
          appleStandHoursGoal      CDATA #IMPLIED
        >
        ]>

        """

    /// iOS 16.0's (Export Version 12): the `VisionPrescription` ATTLIST is never closed with
    /// `>`, so every conforming parser stops before the first record. The reader drops the
    /// subset before parsing; this variant checks that it does.
    static let ios16: String = {
        var text = current.replacingOccurrences(of: "<!-- HealthKit Export Version: 13 -->", with: "<!-- HealthKit Export Version: 12 -->")
        let broken = """
            <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
            <!ATTLIST VisionPrescription
              type CDATA #REQUIRED
              dateIssued CDATA #REQUIRED
              expirationDate CDATA #IMPLIED
              brand CDATA #IMPLIED
            <!ELEMENT RightEye EMPTY>
            <!ELEMENT LeftEye EMPTY>

            """
        text = text.replacingOccurrences(of: "]>\n", with: broken + "]>\n")
        return text
    }()
}
