
/// Prometheus's text exposition format, as node_exporter's textfile collector reads it.
public enum PrometheusText {
    /// `# HELP` and `# TYPE` lines for every family (also one with no samples yet), then one
    /// line per sample; the text ends with a line break, as the format requires.
    public static func render(_ families: [MetricFamily]) -> String {
        var text = ""
        for family in families {
            text += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            text += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                text += family.name
                if !sample.labels.isEmpty {
                    text += "{" + sample.labels.map { "\($0.name)=\"\(escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
                }
                text += " \(format(sample.value))\n"
            }
        }
        return text
    }

    /// A label value inside double quotes: backslash, double quote and line feed escaped.
    public static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n", "\r\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Help text: backslash and line feed escaped (quotes are allowed as they are).
    public static func escapeHelp(_ help: String) -> String {
        var escaped = ""
        for character in help {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n", "\r\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A sample value: whole numbers without a fraction, `NaN`, `+Inf`, `-Inf` as spelled
    /// by the format, others as Swift's shortest exact form (which Go's parser reads).
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }
}
