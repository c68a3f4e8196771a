using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Xml;
using System.Xml.Linq;
using System.Runtime.Serialization.Json;

namespace Mintbench.Tests
{
    /// <summary>
    /// sdks/vectors.json, generated from the Rust reference encoder. Read with the JSON reader that
    /// ships with Mono and .NET (JsonReaderWriterFactory), which exposes JSON as XML: objects and
    /// arrays become elements, each value keeps its raw text and a type attribute ("string",
    /// "number", ...), so big numbers arrive intact.
    /// </summary>
    public static class Vectors
    {
        public static readonly string PathToFile =
            Path.GetFullPath(Path.Combine(AppDomain.CurrentDomain.BaseDirectory, "..", "..", "vectors.json"));

        static XElement root;

        static XElement Root
        {
            get
            {
                if (root == null)
                {
                    if (!File.Exists(PathToFile)) throw new CheckFailed(PathToFile + " does not exist");
                    using (var reader = JsonReaderWriterFactory.CreateJsonReader(File.ReadAllBytes(PathToFile), XmlDictionaryReaderQuotas.Max))
                        root = XElement.Load(reader);
                }
                return root;
            }
        }

        public static XElement Section(string name)
        {
            XElement section = Root.Element(name);
            if (section == null) throw new CheckFailed(PathToFile + " has no \"" + name + "\" section");
            return section;
        }

        /// <summary>The elements of an array section; fails on an empty one so a test cannot pass vacuously.</summary>
        public static List<XElement> Items(string name)
        {
            return NonEmpty(Section(name).Elements().ToList(), name);
        }

        public static List<XElement> NonEmpty(List<XElement> items, string what)
        {
            if (items.Count == 0) throw new CheckFailed(what + " in " + PathToFile + " is empty");
            return items;
        }

        public static string Text(this XElement item, string field)
        {
            XElement value = item.Element(field);
            if (value == null) throw new CheckFailed("a vector has no \"" + field + "\": " + item);
            return value.Value;
        }

        public static bool IsString(this XElement value)
        {
            return (string)value.Attribute("type") == "string";
        }
    }
}
