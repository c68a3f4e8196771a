using System;
using System.Globalization;

namespace Mintbench
{
    /// <summary>A setting the producer cannot run with; its message names the setting.</summary>
    public sealed class SettingsException : Exception
    {
        public SettingsException(string message) : base(message) { }
    }

    /// <summary>The producer's environment (sdks/README.md, "Producer settings"), validated.</summary>
    public sealed class ProducerSettings
    {
        public string Host { get; private set; }
        public int Port { get; private set; }
        public string MsgId { get; private set; }
        public int Bits { get; private set; }
        public int Pack { get; private set; }
        public int Batch { get; private set; }
        public int Messages { get; private set; }
        public int Warmup { get; private set; }

        /// <summary>The whole batches sent before the timed window: ceil(WARMUP / BATCH).</summary>
        public int WarmupBatches { get { return (int)(((long)Warmup + Batch - 1) / Batch); } }
        public int TotalBatches { get { return (int)(((long)Messages + Batch - 1) / Batch); } }
        public int WarmupMessages { get { return WarmupBatches * Batch; } }

        public static ProducerSettings FromEnvironment(Func<string, string> variable)
        {
            var s = new ProducerSettings();
            ParseServer(Required(variable, "SERVER"), s);
            s.MsgId = Required(variable, "MSG_ID");
            if (Array.IndexOf(Strategies.Names, s.MsgId) < 0)
                throw new SettingsException("MSG_ID=" + s.MsgId + " is not a strategy; expected one of " + string.Join(", ", Strategies.Names));
            s.Bits = Integer(variable, "BITS", 1, 64);
            s.Pack = Integer(variable, "PACK", 1, int.MaxValue);
            s.Batch = Integer(variable, "BATCH", 1, int.MaxValue);
            s.Messages = Integer(variable, "MESSAGES", 1, int.MaxValue);
            s.Warmup = Integer(variable, "WARMUP", 0, int.MaxValue);
            if (s.Messages < s.Batch)
                throw new SettingsException("MESSAGES=" + s.Messages + " is less than BATCH=" + s.Batch);
            if (s.WarmupBatches >= s.TotalBatches)
                throw new SettingsException("WARMUP=" + s.Warmup + " leaves no timed batch: MESSAGES=" + s.Messages
                    + " is " + s.TotalBatches + " batches of BATCH=" + s.Batch + " and the warm-up takes " + s.WarmupBatches);
            return s;
        }

        static string Required(Func<string, string> variable, string name)
        {
            string value = variable(name);
            if (string.IsNullOrEmpty(value)) throw new SettingsException(name + " is not set");
            return value;
        }

        static int Integer(Func<string, string> variable, string name, int min, int max)
        {
            string text = Required(variable, name);
            long value;
            if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value) || value < min || value > max)
                throw new SettingsException(name + "=" + text + " is not an integer in " + min + "..=" + max);
            return (int)value;
        }

        static void ParseServer(string server, ProducerSettings s)
        {
            int colon = server.LastIndexOf(':');
            int port;
            if (colon <= 0 || !int.TryParse(server.Substring(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out port)
                || port < 1 || port > 65535)
                throw new SettingsException("SERVER=" + server + " is not host:port");
            s.Host = server.Substring(0, colon).Trim('[', ']');
            s.Port = port;
        }
    }
}
