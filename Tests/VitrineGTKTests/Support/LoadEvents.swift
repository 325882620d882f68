import Vitrine

extension ContainerEvent {
    /// Whether this is `url`'s load reaching `event` without an error, whatever HTTP status
    /// its main resource answered (a `finished` line carries it when it has one).
    func isLoad(_ event: LoadEvent, of url: String) -> Bool {
        if case .load(event, url, nil, _, _) = self { true } else { false }
    }
}
