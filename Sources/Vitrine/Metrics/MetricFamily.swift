/// One metric family in Prometheus's text exposition format (version 0.0.4): a name, its
/// help and type, and its samples.
public struct MetricFamily: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case counter, gauge
    }

    /// One line of a family: its label pairs, in the order written, and its value.
    public struct Sample: Sendable, Equatable {
        public var labels: [Label]
        public var value: Double

        public init(_ value: Double, labels: [Label] = []) {
            self.labels = labels
            self.value = value
        }
    }

    public struct Label: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var name: String
    public var help: String
    public var kind: Kind
    public var samples: [Sample]

    public init(_ name: String, _ kind: Kind, help: String, samples: [Sample]) {
        self.name = name
        self.kind = kind
        self.help = help
        self.samples = samples
    }

    /// A family of one unlabelled sample.
    public init(_ name: String, _ kind: Kind, help: String, value: Double) {
        self.init(name, kind, help: help, samples: [Sample(value)])
    }
}
