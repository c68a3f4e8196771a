using System;
using System.Buffers;
using System.Runtime.InteropServices;

namespace Mintbench
{
    /// <summary>The SDK's UInt128 message ID as its two halves (Mono's compiler has no UInt128):
    /// on the wire Lo is bytes 0..7 and Hi bytes 8..15.</summary>
    public struct U128
    {
        public ulong Lo, Hi;

        public U128(ulong lo, ulong hi)
        {
            Lo = lo;
            Hi = hi;
        }

        public bool IsZero { get { return (Lo | Hi) == 0; } }
    }

    /// <summary>
    /// The SDK's message header, a C# 9 `record` there. A record is a class and `with` clones it
    /// through its copy constructor: one new object per copy, which WithId reproduces. The fields
    /// are the SDK's, so a copy moves as many bytes.
    /// </summary>
    public sealed class MessageHeader
    {
        public ulong Checksum;
        public U128 Id;
        public ulong Offset;
        public DateTimeOffset Timestamp;
        public ulong OriginTimestamp;
        public int UserHeadersLength;
        public int PayloadLength;

        public MessageHeader() { }

        MessageHeader(MessageHeader original)
        {
            Checksum = original.Checksum;
            Id = original.Id;
            Offset = original.Offset;
            Timestamp = original.Timestamp;
            OriginTimestamp = original.OriginTimestamp;
            UserHeadersLength = original.UserHeadersLength;
            PayloadLength = original.PayloadLength;
        }

        /// <summary>`header with { Id = id }`.</summary>
        public MessageHeader WithId(U128 id)
        {
            return new MessageHeader(this) { Id = id };
        }
    }

    /// <summary>A message as the application hands it to the SDK.</summary>
    public sealed class Message
    {
        public MessageHeader Header;
        public byte[] Payload;
    }

    /// <summary>The SDK's first loop over a batch: every message whose Header.Id is zero gets an
    /// ID through a record copy.</summary>
    public interface IZeroIdReplacement
    {
        void Replace(Message[] messages);
    }

    /// <summary>
    /// The SDK before the fix: per zero ID `Guid.NewGuid().ToUInt128()`, the Guid written to a
    /// stackalloc span and read back as two u64 (the upper half from bytes 0..7), the same bytes
    /// as GuidMinter.
    /// </summary>
    public sealed class GuidReplacement : IZeroIdReplacement
    {
        readonly Func<Guid> newGuid;

        public GuidReplacement() : this(Guid.NewGuid) { }

        /// <summary>A Guid source other than Guid.NewGuid, for tests that count its calls.</summary>
        public GuidReplacement(Func<Guid> newGuid)
        {
            this.newGuid = newGuid;
        }

        public void Replace(Message[] messages)
        {
            foreach (Message message in messages)
                if (message.Header.Id.IsZero)
                    message.Header = message.Header.WithId(NewId());
        }

        U128 NewId()
        {
            Span<byte> bytes = stackalloc byte[16];
            newGuid().TryWriteBytes(bytes);
            ulong upper = MemoryMarshal.Read<ulong>(bytes);
            ulong lower = MemoryMarshal.Read<ulong>(bytes.Slice(8));
            return new U128(lower, upper);
        }
    }

    /// <summary>The branch: the zero IDs are counted, one Fill call mints them all into a buffer
    /// kept across batches, and the same loop reads them from it in order.</summary>
    public sealed class BatchFillReplacement : IZeroIdReplacement
    {
        readonly IMessageIdMinter minter;
        byte[] ids = new byte[0];

        public BatchFillReplacement(IMessageIdMinter minter)
        {
            this.minter = minter;
        }

        public void Replace(Message[] messages)
        {
            int zeroIds = 0;
            foreach (Message message in messages)
                if (message.Header.Id.IsZero) zeroIds++;
            if (zeroIds == 0) return;
            if (ids.Length < zeroIds * MessageId.Size) ids = new byte[messages.Length * MessageId.Size];
            minter.Fill(ids, 0, zeroIds);
            int at = 0;
            foreach (Message message in messages)
                if (message.Header.Id.IsZero)
                {
                    message.Header = message.Header.WithId(new U128(LittleEndian.ReadUInt64(ids, at), LittleEndian.ReadUInt64(ids, at + 8)));
                    at += MessageId.Size;
                }
        }
    }

    /// <summary>
    /// The faithful send path: the C# SDK's per-message work before the fix. Per batch the
    /// application builds one Message (header and payload array) per message, with a zero ID unless
    /// it has its own (`appIds`, for `preset`). Then, as the SDK's TcpContracts: a first loop over
    /// the messages replaces every zero Header.Id through a record copy, and a second loop writes
    /// the frames into one buffer sized from the messages and rented from a pool.
    /// </summary>
    public sealed class FaithfulEncoder : IBatchEncoder
    {
        readonly byte[] client;
        readonly int bits, pack, payloadLength, maxMessages;
        readonly IZeroIdReplacement replacement;
        readonly IMessageIdMinter appIds;
        readonly byte[] idScratch = new byte[MessageId.Size];
        readonly byte[] checksumInput;
        byte[] frame;
        // The application's list of a batch's messages: one kept across batches and emptied after
        // each. Mono's collector allocates any object over 8000 bytes (a Message[] of 1000) as an
        // old large object, so a fresh list per batch would keep every message it names alive
        // through the minor collections until the next major one, and each would promote about
        // ten batches of dead messages. .NET, where the SDK runs, keeps arrays under 85,000 bytes
        // young, so there such a list dies with its batch, as the messages of this one do.
        Message[] batch = new Message[0];

        // .NET's ArrayPool.Shared, which the SDK rents from, pools arrays up to 2^30 bytes; Mono's
        // stops at 1 MiB and would allocate every ~1 MB batch afresh (PACK=167), so a pool with
        // .NET's bound stands in.
        static readonly ArrayPool<byte> Pool = ArrayPool<byte>.Create(1 << 30, 1);

        /// <param name="appIds">IDs the application sets on its messages, or null to leave them zero.</param>
        public FaithfulEncoder(byte[] client, int maxMessages, int bits, int pack, IZeroIdReplacement replacement, IMessageIdMinter appIds)
        {
            this.client = client;
            this.maxMessages = maxMessages;
            this.bits = bits;
            this.pack = pack;
            this.replacement = replacement;
            this.appIds = appIds;
            payloadLength = Payload.Length(bits, pack);
            checksumInput = SendMessagesFrame.NewChecksumInput(maxMessages);
        }

        public byte[] Frame { get { return frame; } }

        public int Encode(ulong request, ulong session, ulong originTimestamp, ulong firstSeq, int count)
        {
            SendMessagesFrame.CheckCount(count, maxMessages);
            BuildMessages(firstSeq, count, originTimestamp);
            try
            {
                return CreateMessages(request, session, originTimestamp, batch);
            }
            finally
            {
                Array.Clear(batch, 0, batch.Length);
            }
        }

        /// <summary>The application's side: the messages it hands to SendMessages.</summary>
        void BuildMessages(ulong firstSeq, int count, ulong originTimestamp)
        {
            if (batch.Length != count) batch = new Message[count];
            for (int i = 0; i < count; i++)
            {
                var payload = new byte[payloadLength];
                Payload.Write(payload, 0, firstSeq + (ulong)i, bits, pack);
                var header = new MessageHeader { PayloadLength = payload.Length, OriginTimestamp = originTimestamp };
                if (appIds != null)
                {
                    appIds.MintInto(idScratch, 0);
                    header.Id = new U128(LittleEndian.ReadUInt64(idScratch, 0), LittleEndian.ReadUInt64(idScratch, 8));
                }
                batch[i] = new Message { Header = header, Payload = payload };
            }
        }

        /// <summary>The SDK's side: the two loops of its TcpContracts.</summary>
        int CreateMessages(ulong request, ulong session, ulong originTimestamp, Message[] messages)
        {
            replacement.Replace(messages);

            int messagesLength = 0;
            foreach (Message message in messages)
                messagesLength += SendMessagesFrame.MessageHeaderSize + message.Header.UserHeadersLength + message.Payload.Length;
            if (frame != null) Pool.Return(frame);
            frame = Pool.Rent(SendMessagesFrame.MessagesAt + messagesLength);

            SendMessagesFrame.WriteEnvelope(frame, client, request, session, originTimestamp, messages.Length, messagesLength);
            int at = SendMessagesFrame.MessagesAt;
            for (int i = 0; i < messages.Length; i++)
            {
                MessageHeader header = messages[i].Header;
                byte[] payload = messages[i].Payload;
                LittleEndian.WriteUInt64(frame, at + 8, header.Id.Lo);
                LittleEndian.WriteUInt64(frame, at + 16, header.Id.Hi);
                SendMessagesFrame.WriteMessageFields(frame, at, i, payload.Length);
                Buffer.BlockCopy(payload, 0, frame, at + SendMessagesFrame.MessageHeaderSize, payload.Length);
                int frameLength = SendMessagesFrame.MessageHeaderSize + payload.Length;
                SendMessagesFrame.SealMessage(frame, at, frameLength, checksumInput, i);
                at += frameLength;
            }
            return SendMessagesFrame.SealBatch(frame, checksumInput, originTimestamp, messages.Length, messagesLength);
        }
    }
}
