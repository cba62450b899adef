/// What a `people` run was asked: the store whose persons to list.
public struct PeopleRequest: Sendable {
    public var storePath: String
    public init(storePath: String) { self.storePath = storePath }
}
