#if canImport(Combine)
    import Combine

    /// SwiftUI views observe the model's `@Published` properties.
    extension TaskBoardModel: ObservableObject {}
#endif
