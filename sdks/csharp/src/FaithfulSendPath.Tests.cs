using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;

namespace Mintbench.Tests
{
    /// <summary>The faithful path writes the lean path's bytes, and its arms take the SDK's routes.</summary>
    public static class FaithfulSendPathTests
    {
        static readonly byte[] Client = MessageId.Serialize("123456789012345678901234567890");

        public static void FramesMatchVectorsWhetherTheSdkOrTheApplicationSetsTheIds()
        {
            foreach (var v in IggyFramesTests.FrameVectors("send_messages"))
            {
                byte[][] ids = v.Element("ids").Elements().Select(e => MessageId.Serialize(e.Value)).ToArray();
                int bits = IggyFramesTests.Int(v, "bits"), pack = IggyFramesTests.Int(v, "pack");
                var replaced = new ListMinter(ids);
                var bySdk = new FaithfulEncoder(IggyFramesTests.U128(v, "client"), ids.Length, bits, pack, new BatchFillReplacement(replaced), null);
                var never = new ListMinter(new byte[0][]);
                var byApp = new FaithfulEncoder(IggyFramesTests.U128(v, "client"), ids.Length, bits, pack, new BatchFillReplacement(never), new ListMinter(ids));
                foreach (var encoder in new IBatchEncoder[] { bySdk, byApp })
                {
                    int length = encoder.Encode(IggyFramesTests.U64(v, "request"), IggyFramesTests.U64(v, "session"),
                        IggyFramesTests.U64(v, "origin_timestamp"), IggyFramesTests.U64(v, "first_seq"), ids.Length);
                    Check.Equal(v.Text("hex"), Check.ToHex(encoder.Frame, 0, length), "faithful send_messages frame of " + ids.Length + " messages");
                }
                Check.Equal("1 " + ids.Length, replaced.FillCalls + " " + replaced.FilledIds, "one Fill call for the batch's zero IDs");
                Check.Equal(0, never.FillCalls, "no Fill call when the application set every ID");
            }
        }

        /// <summary>Batch after batch, full and short, at two payload sizes: the same bytes as lean.</summary>
        public static void FramesAreByteIdenticalToLeanForTheSameIds()
        {
            var seed = new byte[32];
            seed[0] = 7;
            foreach (int pack in new[] { 1, 167 })
            {
                var lean = new SendMessagesEncoder(Client, 50, 42, pack, new XoshiroMinter(seed));
                var faithful = new FaithfulEncoder(Client, 50, 42, pack, new BatchFillReplacement(new XoshiroMinter(seed)), null);
                ulong seq = 0;
                foreach (int count in new[] { 50, 50, 13, 50, 1 })
                {
                    int leanLength = lean.Encode(seq + 1, 9, 1700000000000000 + seq, seq, count);
                    int faithfulLength = faithful.Encode(seq + 1, 9, 1700000000000000 + seq, seq, count);
                    Check.Equal(Check.ToHex(lean.Frame, 0, leanLength), Check.ToHex(faithful.Frame, 0, faithfulLength),
                        "PACK=" + pack + ": a batch of " + count + " from seq " + seq);
                    seq += (ulong)count;
                }
            }
        }

        /// <summary>`uuid` asks Guid.NewGuid once per message and writes the Guid as the SDK's
        /// ToUInt128 did; with the application's IDs it never asks.</summary>
        public static void UuidCallsTheGuidSourceOncePerMessage()
        {
            int calls = 0;
            var guids = Enumerable.Range(1, 30).Select(i => Guid.NewGuid()).ToArray();
            var encoder = new FaithfulEncoder(Client, 20, 42, 1, new GuidReplacement(() => guids[calls++]), null);
            encoder.Encode(1, 9, 1000, 0, 20);
            Check.Equal(20, calls, "Guid.NewGuid calls for 20 messages");
            encoder.Encode(2, 9, 1000, 20, 10);
            Check.Equal(30, calls, "and for 10 more");
            // Frame bytes 0..7 of the ID are the Guid's bytes 8..15, bytes 8..15 its bytes 0..7: GuidMinter's layout.
            byte[] g = guids[29].ToByteArray();
            string expected = Check.ToHex(g, 8, 8) + Check.ToHex(g, 0, 8);
            Check.Equal(expected, Check.ToHex(encoder.Frame, SendMessagesFrame.MessagesAt + 9 * (48 + 6) + 8, 16), "the last ID");

            int presetCalls = 0;
            var preset = new FaithfulEncoder(Client, 20, 42, 1, new GuidReplacement(() => { presetCalls++; return Guid.NewGuid(); }), new PresetMinter(new XoshiroMinter(), 20));
            preset.Encode(1, 9, 1000, 0, 20);
            Check.Equal(0, presetCalls, "Guid.NewGuid calls when the application set every ID");
        }

        /// <summary>In a batch where the application set some IDs, the branch fills exactly the
        /// zero ones, in message order, through a record copy, and leaves the others' headers.</summary>
        public static void BatchFillReplacesOnlyTheZeroIdsInOrder()
        {
            var minted = new[] { MessageId.Serialize(101UL), MessageId.Serialize(102UL), MessageId.Serialize(103UL) };
            var source = new ListMinter(minted);
            var replacement = new BatchFillReplacement(source);
            bool[] appSet = { true, false, false, true, false };
            var messages = appSet.Select((set, i) => new Message { Header = new MessageHeader { Id = set ? new U128(7 + (ulong)i, 9) : new U128(0, 0) } }).ToArray();
            var before = messages.Select(m => m.Header).ToArray();
            replacement.Replace(messages);
            Check.Equal("7 9|101 0|102 0|10 9|103 0", string.Join("|", messages.Select(m => m.Header.Id.Lo + " " + m.Header.Id.Hi)), "IDs after the fill");
            Check.Equal("1 3", source.FillCalls + " " + source.FilledIds, "one Fill call for the three zero IDs");
            Check.True(messages.Select((m, i) => ReferenceEquals(m.Header, before[i]) == appSet[i]).All(same => same), "new headers exactly for the zero IDs");
        }

        /// <summary>The encoder keeps none of a sent batch's messages: a minor collection frees them.
        /// On Mono a list of 1000 messages is an old large object, whose references a minor
        /// collection follows, so a list that still named them would keep them all.</summary>
        public static void AMinorCollectionAfterABatchFreesItsMessages()
        {
            var watch = new WatchedReplacement();
            EncodeOneBatch(new FaithfulEncoder(Client, 1000, 42, 1, watch, null), 1000);
            GC.Collect(0);
            int alive = watch.Messages.Count(message => message.IsAlive);
            // The collector scans stacks conservatively: a stale slot may still pin a message or two.
            Check.True(alive <= 2, alive + " of 1000 messages survived a minor collection after their batch");
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void EncodeOneBatch(FaithfulEncoder encoder, int count)
        {
            encoder.Encode(1, 9, 1000, 0, count);
        }

        /// <summary>Leaves the IDs zero and keeps a weak reference to every message it sees.</summary>
        sealed class WatchedReplacement : IZeroIdReplacement
        {
            public readonly List<WeakReference> Messages = new List<WeakReference>();

            public void Replace(Message[] messages)
            {
                foreach (Message message in messages) Messages.Add(new WeakReference(message));
            }
        }

        public static void WithIdCopiesTheHeader()
        {
            var header = new MessageHeader { PayloadLength = 6, OriginTimestamp = 5, Checksum = 3 };
            MessageHeader copy = header.WithId(new U128(1, 2));
            Check.True(!ReferenceEquals(header, copy), "a new header object");
            Check.True(header.Id.IsZero, "the original keeps its ID");
            Check.Equal("1 2 6 5 3", copy.Id.Lo + " " + copy.Id.Hi + " " + copy.PayloadLength + " " + copy.OriginTimestamp + " " + copy.Checksum, "the copy's fields");
        }

        public static void EveryFaithfulStrategyBuildsAnEncoder()
        {
            foreach (string name in Strategies.FaithfulNames)
                Check.True(Strategies.Encoder(SendPaths.Faithful, name, Client, 10, 42, 1, 10) is FaithfulEncoder, name + " on the faithful path");
            foreach (string name in Strategies.Names)
                Check.True(Strategies.Encoder(SendPaths.Lean, name, Client, 10, 42, 1, 10) is SendMessagesEncoder, name + " on the lean path");
        }
    }
}
