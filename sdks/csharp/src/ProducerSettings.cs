using System;
using System.Globalization;
using System.Text.RegularExpressions;

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
        /// <summary>One strategy name per arm (one arm unless Paired).</summary>
        public string[] MsgIds { get; private set; }
        public bool Paired { get; private set; }
        public ulong Seed { get; private set; }
        public string SendPath { get; private set; }
        /// <summary>ns per message, a decimal (INJECT_NS).</summary>
        public double InjectNs { get; private set; }
        public int InjectArm { get; private set; }
        public int Bits { get; private set; }
        public int Pack { get; private set; }
        public int Batch { get; private set; }
        public int Messages { get; private set; }
        public int Warmup { get; private set; }

        /// <summary>The whole batches sent before the timed window: ceil(WARMUP / BATCH).</summary>
        public int WarmupBatches { get { return (int)(((long)Warmup + Batch - 1) / Batch); } }
        public int TotalBatches { get { return (int)(((long)Messages + Batch - 1) / Batch); } }
        public int WarmupMessages { get { return WarmupBatches * Batch; } }

        /// <summary>The spin target of a batch of `count` messages of the injected arm, to the nearest ns
        /// (halves away from zero, as the other rows round).</summary>
        public long InjectedNsPerBatch(int count)
        {
            return (long)Math.Round(count * InjectNs, MidpointRounding.AwayFromZero);
        }

        /// <summary>A second per message: far past calibration's needs, and a batch's target fits a long.</summary>
        const double MaxInjectNs = 1e9;

        public static ProducerSettings FromEnvironment(Func<string, string> variable)
        {
            var s = new ProducerSettings();
            ParseServer(Required(variable, "SERVER"), s);
            s.SendPath = Optional(variable, "SEND_PATH", SendPaths.Lean);
            if (Array.IndexOf(SendPaths.Names, s.SendPath) < 0)
                throw new SettingsException("SEND_PATH=" + s.SendPath + " is unknown; expected one of " + string.Join(", ", SendPaths.Names));
            s.Paired = Integer(variable, "PAIRED", 0, 1, "0") == 1;
            string msgId = Required(variable, "MSG_ID");
            s.MsgIds = s.Paired ? msgId.Split(',') : new[] { msgId };
            string[] accepted = Strategies.NamesFor(s.SendPath);
            foreach (string name in s.MsgIds)
                if (Array.IndexOf(accepted, name) < 0)
                    throw new SettingsException("MSG_ID=" + name + " is unknown; expected one of " + string.Join(", ", accepted));
            if (s.Paired && s.MsgIds.Length < 2)
                throw new SettingsException("PAIRED=1 needs at least two arms; MSG_ID=" + msgId + " has " + s.MsgIds.Length);
            if (s.Paired) s.Seed = UInt64(variable, "SEED");
            s.InjectNs = DecimalNs(variable, "INJECT_NS");
            s.InjectArm = (int)Integer(variable, "INJECT_ARM", 0, s.MsgIds.Length - 1, "0");
            s.Bits = (int)Integer(variable, "BITS", 1, 64);
            s.Pack = (int)Integer(variable, "PACK", 1, int.MaxValue);
            s.Batch = (int)Integer(variable, "BATCH", 1, int.MaxValue);
            s.Messages = (int)Integer(variable, "MESSAGES", 1, int.MaxValue);
            s.Warmup = (int)Integer(variable, "WARMUP", 0, int.MaxValue);
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

        /// <summary>The contract's settings added with paired mode take their neutral value when unset.</summary>
        static string Optional(Func<string, string> variable, string name, string unset)
        {
            string value = variable(name);
            return string.IsNullOrEmpty(value) ? unset : value;
        }

        static long Integer(Func<string, string> variable, string name, long min, long max, string unset = null)
        {
            string text = unset == null ? Required(variable, name) : Optional(variable, name, unset);
            long value;
            if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value) || value < min || value > max)
                throw new SettingsException(name + "=" + text + " is not an integer in " + min + "..=" + max);
            return value;
        }

        /// <summary>INJECT_NS's form (sdks/README.md): digits with an optional fraction, at most MaxInjectNs.</summary>
        static double DecimalNs(Func<string, string> variable, string name)
        {
            string text = Optional(variable, name, "0");
            double value = 0;
            if (!Regex.IsMatch(text, @"^[0-9]+(\.[0-9]+)?$")
                || !double.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out value) || value > MaxInjectNs)
                throw new SettingsException(name + "=" + text + " is not a decimal number of ns in 0..=" + MaxInjectNs.ToString(CultureInfo.InvariantCulture));
            return value;
        }

        static ulong UInt64(Func<string, string> variable, string name)
        {
            string text = Optional(variable, name, "0");
            ulong value;
            if (!ulong.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value))
                throw new SettingsException(name + "=" + text + " is not a u64 (decimal)");
            return value;
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
