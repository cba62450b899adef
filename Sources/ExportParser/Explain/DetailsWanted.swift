/// A sink that only asks the readers to decode details (each sample's device): the day book
/// beside it in a fanout then hears samples with their device, which `explain` lists.
final class DetailsWanted: SampleSink {
    let wantsDetails = true
}
