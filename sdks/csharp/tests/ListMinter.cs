using System;

namespace Mintbench.Tests
{
    /// <summary>Hands out given IDs in order: known IDs for the encoders under test. Counts its
    /// Fill calls and the IDs they asked for.</summary>
    public sealed class ListMinter : IMessageIdMinter
    {
        readonly byte[][] ids;
        int next;
        public int FillCalls, FilledIds;

        public ListMinter(byte[][] ids) { this.ids = ids; }

        public void MintInto(byte[] destination, int offset)
        {
            Buffer.BlockCopy(ids[next++], 0, destination, offset, MessageId.Size);
        }

        public void Fill(byte[] destination, int offset, int count)
        {
            FillCalls++;
            FilledIds += count;
            for (int i = 0; i < count; i++) MintInto(destination, offset + i * MessageId.Size);
        }
    }
}
