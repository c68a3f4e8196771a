using System;
using Mintbench;

/// <summary>The C# producer for the runner: settings from the environment, one JSON line on stdout,
/// or one `error: ...` line on stderr and exit code 1.</summary>
static class Producer
{
    static int Main()
    {
        try
        {
            ProducerSettings settings = ProducerSettings.FromEnvironment(Environment.GetEnvironmentVariable);
            Console.WriteLine(ProducerRun.Run(settings).ToJson());
            return 0;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            return 1;
        }
    }
}
